"""Stage 1: text → syntax tree. Lark LALR with a cached grammar; friendly syntax errors."""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from . import ast as A
from . import cache
from .errors import Diagnostic, WishSyntaxError, closest
from .limits import MAX_SOURCE, TooLarge, read_text
from .words import RESERVED, RESERVED_AT_LINE_START  # noqa: F401 - RESERVED_AT_LINE_START: read from here too

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
MAX_SYNTAX_ERRORS = 20
MAX_DEPTH = 200

if TYPE_CHECKING:  # Lark is imported when a text must really be parsed (not on a cache hit)
    import lark

_parser: Optional["lark.Lark"] = None


_KEYWORD_TYPES: dict = {}


def _reserve(tok):
    """The contextual lexer reads a keyword as a NAME where no keyword fits; give it back its keyword type."""
    word = tok.value
    if word in RESERVED or (tok.column == 1 and word in RESERVED_AT_LINE_START):
        kind = _KEYWORD_TYPES.get(word)
        if kind is not None:
            tok.type = kind
    return tok


def grammar_parser() -> "lark.Lark":
    """The LALR parser, built once per process and cached on disk between processes."""
    global _parser
    if _parser is None:
        import lark

        _parser = lark.Lark(
            _grammar_text(),
            parser="lalr",
            lexer="contextual",
            propagate_positions=True,
            maybe_placeholders=True,
            cache=True,
            lexer_callbacks={"NAME": _reserve},
        )
        for t in _parser.terminals:
            if getattr(t.pattern, "type", "") == "str" and t.pattern.value.isidentifier():
                _KEYWORD_TYPES[t.pattern.value] = t.name
    return _parser


def layout_parser(on_comment) -> "lark.Lark":
    """A second LALR parser of the same grammar for `wishdsl fmt` (dsl/fmt_layout.py): every token kept, each
    comment passed to `on_comment`, keywords given back as the main parser does."""
    import lark

    grammar_parser()  # fills the keyword table `_reserve` reads
    return lark.Lark(_grammar_text(), parser="lalr", lexer="contextual", keep_all_tokens=True,
                     maybe_placeholders=True, cache=True, lexer_callbacks={"NAME": _reserve, "COMMENT": on_comment})


# ---------------------------------------------------------------- friendly names of terminals

_TOKEN_WORDS = {
    "NAME": "a name",
    "STRING": "a quoted string",
    "INT": "a number",
    "SIGNED_INT": "a number",
    "DOC": 'a """doc string"""',
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "COLON": "':'",
    "DOT": "'.'",
    "VBAR": "'|'",
    "EQUAL": "'='",
    "ASSIGN_OP": "'=', '+=' or '-='",
    "STATIC_OP": "'=', '+=' or '-='",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
    "MINUS": "'-'",
    "QMARK": "'?'",
    "AT": "'@'",
    "SEMICOLON": "';'",
    "OWNER": "'player'",
    "VISIBILITY": "'public', 'hidden' or 'owner'",
    "$END": "the end of the file",
}


def _word(terminal: str) -> str:
    if terminal in _TOKEN_WORDS:
        return _TOKEN_WORDS[terminal]
    if terminal.startswith("__ANON"):
        return "a symbol"
    return f"'{terminal.lower()}'"


def _describe_found(tok) -> str:
    if tok is None or getattr(tok, "type", None) == "$END":
        return "the end of the file"
    text = str(tok)
    if tok.type == "STRING":
        return f"the string {text}"
    if tok.type in ("NAME", "INT"):
        return f"'{text}'"
    return f"'{text}'"


_DECL_STARTS = {
    "GAME", "ENUM", "CARD", "CARDS", "ZONE", "VAR", "PARAM", "EVENT", "FUNCTION", "PROCEDURE", "ACTION",
    "ABILITIES", "WHEN", "SETUP", "PLAY", "SCORING", "VARIANT", "REMOVE", "OWNER", "AT", "DOC", "INVARIANT",
}
_STMT_STARTS = {
    "LET", "IF", "FOR", "REPEAT", "WHILE", "MOVE", "SHUFFLE", "PEEK", "REVEAL", "TURN", "SWAP", "ANNOUNCE",
    "LOG", "CHOOSE", "SIMULTANEOUSLY", "ACT", "RESOLVE", "EMIT", "REQUIRE", "END", "TRANSFER",
}


_EXPR_STARTS = {"LPAR", "MINUS", "LSQB", "LBRACE", "BOTTOM", "FALSE", "NONE", "TOP", "TRUE", "NAME", "INT",
                "STRING", "IF", "NOT"}
_OPERATORS = {"MUL_OP", "ADD_OP", "DOT", "AND", "OR", "IN", "NOT", "COMP_OP"}


def _expected_phrase(expected: set) -> str:
    """Say what the grammar wanted, in words: groups of tokens become 'an expression', 'an operator'."""
    expected = {e for e in expected if e not in ("WS", "COMMENT")}
    if not expected:
        return "something else"
    if len(expected & _DECL_STARTS) > 10:
        return "a declaration (game, enum, card, cards, zone, var, param, procedure, action, when, setup, play, …)"
    words = []
    if len(expected & _STMT_STARTS) > 8:
        words.append("a statement (let, if, for, move, choose, …)")
        expected -= _STMT_STARTS | {"NAME", "SEMICOLON"}
    if len(expected & _EXPR_STARTS) >= 5:
        words.append("an expression")
        expected -= _EXPR_STARTS
    if len(expected & _OPERATORS) >= 3:
        words.append("an operator")
        expected -= _OPERATORS | {"LPAR", "LSQB"}
    words += sorted({_word(e) for e in expected})
    if len(words) > 7:
        words = words[:7] + ["…"]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _syntax_diagnostic(err, path: str) -> Diagnostic:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    line = getattr(err, "line", 0) or 0
    col = getattr(err, "column", 0) or 0
    if isinstance(err, UnexpectedToken):
        tok = err.token
        found = _describe_found(tok)
        if tok.type == "$END":
            line, col = err.line if err.line > 0 else line, err.column if err.column > 0 else col
        expected = set(err.expected)
        try:
            expected = set(err.interactive_parser.accepts()) or expected
        except Exception:  # noqa: BLE001 - fall back to Lark's own (wider) set
            pass
        err.expected = expected
        msg = f"expected {_expected_phrase(expected)}, found {found}"
        end = col + max(1, len(str(tok))) if tok.type != "$END" else col + 1
        hint = _hint_for(err)
        return Diagnostic(A.Span(path, max(line, 1), max(col, 1), max(line, 1), end), msg, hint)
    if isinstance(err, UnexpectedCharacters):
        ch = err.char
        msg = f"unexpected character {ch!r}"
        hint = None
        if ch == "'":
            hint = 'strings are written in double quotes: "like this"'
        elif ch == '"':
            hint = "a string must end on the line where it starts"
        elif err.allowed:
            msg += f"; expected {_expected_phrase(set(err.allowed))}"
        return Diagnostic(A.Span(path, line, col, line, col + 1), msg, hint)
    if isinstance(err, UnexpectedEOF):
        return Diagnostic(A.Span(path, max(line, 1), max(col, 1), max(line, 1), max(col, 1) + 1),
                          f"unexpected end of file; expected {_expected_phrase(set(err.expected))}",
                          "a '{' may be missing its '}'")
    return Diagnostic(A.Span(path, line, col, line, col + 1), str(err))


def _hint_for(err) -> Optional[str]:
    tok = err.token
    exp = set(err.expected)
    if tok.type == "$END" and "RBRACE" in exp:
        return "a '{' is not closed: add the missing '}'"
    if "ELSE" in exp and "REQUIRE" not in exp and len(exp) <= 3:
        return 'write the message a player sees when the requirement fails: require COND else "message"'
    if tok.type in ("EQUAL", "ASSIGN_OP") and str(tok) == "=":
        return "to compare, write '=='"
    if tok.type == "NAME" and str(tok) in ("elif", "elsif"):
        return "write 'else if'"
    if tok.type == "NAME" and str(tok) in ("def", "fn", "func"):
        return "declare a 'procedure' (effects) or a 'function' (a value)"
    if tok.type == "NAME":
        word = closest(str(tok), (w for w, t in _KEYWORD_TYPES.items() if t in exp))
        if word is not None:
            return f"did you mean '{word}'?"
    if "NAME" in exp and tok.type not in ("NAME", "$END") and str(tok).isidentifier():
        return f"'{tok}' is a keyword of the language and cannot be used as a name here"
    if "RBRACE" in exp and tok.type in _DECL_STARTS:
        return "the block before this line may be missing its '}'"
    return None


# ---------------------------------------------------------------- tree → AST


def _diagnose(err, path: str) -> Diagnostic:
    if isinstance(err, RecursionError):
        return Diagnostic(A.Span(path, 1, 1, 1, 2), "the file is nested too deeply to read")
    return _syntax_diagnostic(err, path)


def _parse_tree(text: str, path: str):
    """The parse tree, or None and every syntax error (dsl/recover.py: each broken declaration is blanked out
    and the parse goes on after it)."""
    from lark.exceptions import UnexpectedInput
    try:
        return grammar_parser().parse(text), []
    except (UnexpectedInput, RecursionError) as err:
        first = _diagnose(err, path)
    from .recover import every_error
    return None, every_error(grammar_parser(), text, path, first, _diagnose, MAX_SYNTAX_ERRORS)


def parse(text: str, path: str = "<string>", cached: bool = True) -> A.Program:
    """Parse a whole file (or read it from the parse cache). Raises WishSyntaxError listing every syntax error.
    `cached=False`: neither read nor write the cache (an editor's buffer, which changes at every keystroke)."""
    if len(text) > MAX_SOURCE:
        _too_large(path, f"{len(text):,} characters")
    _refuse_control_characters(text, path)
    if not cached:
        prog = _parse(text, path)
        prog.source = text
        return prog
    key = cache.key_of(_grammar_text(), text, path)
    prog = cache.load(key)
    if prog is None:
        prog = _parse(text, path)
        cache.store(key, prog)
    prog.source = text
    return prog


# Characters that could rewrite a terminal (escape sequences, a lone carriage return) or hide code (bidi controls).
_UNSAFE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")
MAX_UNSAFE_REPORTED = 5


def _too_large(path: str, size: str) -> None:
    message = (f"{path}: the file is too large ({size}; the limit is {MAX_SOURCE:,} characters, Wish has about "
               "70,000)")
    raise WishSyntaxError(message, [Diagnostic(None, message)])


def _refuse_control_characters(text: str, path: str) -> None:
    diags = []
    for m in _UNSAFE.finditer(text):
        start = m.start()
        line = text.count("\n", 0, start) + 1
        col = start - (text.rfind("\n", 0, start) + 1) + 1
        diags.append(Diagnostic(A.Span(path, line, col, line, col + 1),
                                f"control character U+{ord(m.group()):04X} in the text",
                                "remove it: it could rewrite a terminal or hide code (in strings write \\n or \\t)"))
        if len(diags) == MAX_UNSAFE_REPORTED:
            break
    if diags:
        raise WishSyntaxError(f"control characters in {path}", diags, {path: text})


def _grammar_text() -> str:
    global _grammar
    if _grammar is None:
        _grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    return _grammar


_grammar: Optional[str] = None


def _parse(text: str, path: str) -> A.Program:
    from .incremental import parse_parts
    prog = parse_parts(text, path, grammar_parser(), MAX_DEPTH)
    if prog is not None:
        return prog
    tree, diags = _parse_tree(text, path)
    if diags or tree is None:
        raise WishSyntaxError(f"{len(diags)} syntax error(s) in {path}", diags, {path: text})
    from lark.exceptions import VisitError

    from .build import SyntaxProblem, ToAst
    builder = ToAst(path)
    try:
        prog = builder.transform(tree)
    except VisitError as err:
        inner = err.orig_exc
        if isinstance(inner, SyntaxProblem):
            raise WishSyntaxError(inner.message, [Diagnostic(inner.span, inner.message)], {path: text}) from None
        if isinstance(inner, RecursionError):
            raise _too_deep(_deepest(tree, path), None, text) from None
        raise inner from None
    except RecursionError:
        raise _too_deep(_deepest(tree, path), None, text) from None
    if builder.problems:
        diags = [Diagnostic(span, message, "numbers this large have no place in a game's rules")
                 for span, message in builder.problems]
        raise WishSyntaxError(diags[0].message, diags, {path: text})
    depth, node = A.deepest(prog)
    if depth > MAX_DEPTH:
        raise _too_deep(node.span, depth, text)
    return prog


def _deepest(tree, path: str) -> A.Span:
    """Where the parse tree goes deepest (walked without recursion): the innermost construct of the nesting
    that was too deep to turn into the syntax tree."""
    from lark import Tree

    best, best_depth = None, -1
    todo = [(tree, 0)]
    while todo:
        node, depth = todo.pop()
        if not isinstance(node, Tree):
            continue
        if depth > best_depth and not node.meta.empty:
            best, best_depth = node, depth
        todo.extend((child, depth + 1) for child in node.children)
    if best is None:
        return A.Span(path, 1, 1, 1, 2)
    m = best.meta
    return A.Span(path, m.line, m.column, m.end_line, m.end_column)


def _too_deep(span: A.Span, depth, text: str) -> WishSyntaxError:
    levels = f" ({depth} levels)" if depth else ""
    d = Diagnostic(span, f"this is nested too deeply{levels}; the limit is {MAX_DEPTH}",
                   "split it into functions or procedures")
    return WishSyntaxError(d.message, [d], {span.file: text})


def parse_file(path: str) -> A.Program:
    p = Path(path)
    try:
        text = read_text(p, MAX_SOURCE * 4)  # no UTF-8 text of MAX_SOURCE characters is larger
    except TooLarge as err:
        _too_large(path, str(err))
    except FileNotFoundError:
        raise WishSyntaxError(f"{path}: no such file", [Diagnostic(None, f"{path}: no such file")]) from None
    except UnicodeDecodeError as err:
        head = err.object[:err.start]
        line = head.count(b"\n") + 1
        col = err.start - (head.rfind(b"\n") + 1) + 1
        d = Diagnostic(A.Span(str(path), line, col, line, col + 1), f"the file is not UTF-8 text ({err.reason})")
        raise WishSyntaxError(d.message, [d], {str(path): ""}) from None
    except OSError as err:
        raise WishSyntaxError(f"{path}: {err.strerror}", [Diagnostic(None, f"{path}: {err.strerror}")]) from None
    return parse(text, str(path))
