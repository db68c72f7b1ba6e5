"""The wishdsl tools on top of the engine: the `wishdsl` command line (cli.py), simulations (simulate.py,
distributed.py and their statistics and reports), saves and replays, and rule scenarios (scenario.py).

The layers import only downward: dsl ← interpreter ← docgen ← wishdsl.
"""
