"""Tests parse thousands of generated texts: keep them out of the user's parse cache."""
import os

os.environ["WISHDSL_CACHE"] = "0"
