"""The README's Neovim set-up, run in a real, headless Neovim against `wishdsl lsp` (issue 22): a house rule with
an error gets the diagnostic, fixing it clears it, go to definition lands in the base game, hover shows the
English with was / now. The Lua set-up is taken from README.md as it is printed there. Skipped without `nvim`
(`.ci/run` installs Debian's).
"""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NVIM = shutil.which("nvim")
pytestmark = pytest.mark.skipif(NVIM is None, reason="Neovim (nvim) is not installed")

SESSION = r"""
local out = {}
local ok, err = pcall(function()
  vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 100)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(out.diagnostics, { line = d.lnum + 1, col = d.col + 1, message = d.message })
  end
  local n = __LINE__
  local line = vim.api.nvim_buf_get_lines(0, n - 1, n, false)[1]
  vim.api.nvim_buf_set_lines(0, n - 1, n, false, { (line:gsub("badgez", "badges")) })
  vim.wait(30000, function() return #vim.diagnostic.get(0) == 0 end, 100)
  out.after_fix = #vim.diagnostic.get(0)
  local params = { textDocument = vim.lsp.util.make_text_document_params(),
                   position = { line = n - 1, character = line:find("badge") - 1 } }
  for _, r in pairs(vim.lsp.buf_request_sync(0, "textDocument/definition", params, 30000) or {}) do
    local loc = r.result[1] or r.result
    out.definition = { uri = loc.uri, line = loc.range.start.line + 1 }
  end
  params.position.character = line:find("Monument") - 1
  for _, r in pairs(vim.lsp.buf_request_sync(0, "textDocument/hover", params, 30000) or {}) do
    out.hover = r.result.contents.value
  end
end)
if not ok then out.error = tostring(err) end
vim.fn.writefile({ vim.fn.json_encode(out) }, "__OUT__")
vim.cmd("qa!")
"""


def readme_setup() -> str:
    """The Lua block under the README's 'Neovim 0.7–0.10' heading."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    at = text.index("**Neovim 0.7–0.10**")
    return re.search(r"```lua\n(.*?)```", text[at:], re.S).group(1)


def test_the_readme_neovim_setup_works(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(ROOT / "games", project, ignore=shutil.ignore_patterns("scenarios"))
    (project / ".wishroot").write_text("")
    rule = project / "house" / "wish_double_badges.wish"
    text = rule.read_text(encoding="utf-8").replace("p.badges)", "p.badgez)")
    rule.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "badgez" in t)
    (tmp_path / "init.lua").write_text(readme_setup(), encoding="utf-8")
    out = tmp_path / "out.json"
    session = tmp_path / "session.lua"
    session.write_text(SESSION.replace("__LINE__", str(line)).replace("__OUT__", str(out)), encoding="utf-8")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_STATE_HOME=str(tmp_path / "state"), WISHDSL_CACHE="0")
    subprocess.run([NVIM, "--headless", "-u", str(tmp_path / "init.lua"), str(rule.relative_to(project)),
                    "-c", f"luafile {session}"], cwd=project, env=env, timeout=180, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    got = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in got, got
    col = text.splitlines()[line - 1].index("p.badgez") + 1  # the whole field access is underlined
    assert got["diagnostics"] == [{"line": line, "col": col, "message": "unknown player variable, parameter or zone "
                                   "'badgez'; did you mean 'badges'?"}]
    assert got["after_fix"] == 0
    base = (project / "wish.wish").read_text(encoding="utf-8").splitlines()
    assert got["definition"]["uri"] == (project / "wish.wish").as_uri()
    assert base[got["definition"]["line"] - 1].startswith("player var badges")
    assert "*was:*" in got["hover"] and "*now:*" in got["hover"] and "2 × the total VP of your badges" in got["hover"]
