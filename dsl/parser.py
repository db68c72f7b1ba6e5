"""Stage 1: text → syntax tree. Lark LALR with a cached grammar; friendly syntax errors."""
from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Optional

import lark
from lark import Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ast as A
from .errors import Diagnostic, WishSyntaxError

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
MAX_SYNTAX_ERRORS = 20
MAX_DEPTH = 200

_parser: Optional[lark.Lark] = None


# Keywords of statements and expressions are reserved everywhere; keywords of declarations only at the start
# of a line, where declarations begin (so "card" or "play" may still name things elsewhere).
RESERVED = frozenset(
    "let if else for in repeat while move shuffle peek reveal turn swap announce log choose simultaneously act "
    "resolve emit require end transfer and or not true false none then".split())
RESERVED_AT_LINE_START = frozenset(
    "game enum card cards zone var param event function procedure action abilities when setup play scoring "
    "variant remove player invariant".split())
_KEYWORD_TYPES: dict = {}


def _reserve(tok: Token) -> Token:
    """The contextual lexer reads a keyword as a NAME where no keyword fits; give it back its keyword type."""
    word = tok.value
    if word in RESERVED or (tok.column == 1 and word in RESERVED_AT_LINE_START):
        kind = _KEYWORD_TYPES.get(word)
        if kind is not None:
            tok.type = kind
    return tok


def grammar_parser() -> lark.Lark:
    """The LALR parser, built once per process and cached on disk between processes."""
    global _parser
    if _parser is None:
        _parser = lark.Lark(
            GRAMMAR_PATH.read_text(encoding="utf-8"),
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


def _syntax_diagnostic(err: UnexpectedInput, path: str) -> Diagnostic:
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


def _hint_for(err: UnexpectedToken) -> Optional[str]:
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
    if "NAME" in exp and len(exp) <= 3 and tok.type not in ("NAME", "$END") and str(tok).isidentifier():
        return f"'{tok}' is a keyword of the language and cannot be used as a name"
    if "RBRACE" in exp and tok.type in _DECL_STARTS:
        return "the block before this line may be missing its '}'"
    return None


# ---------------------------------------------------------------- tree → AST


def _unquote(tok: str) -> str:
    body = tok[1:-1]
    out, i = [], 0
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(escapes.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _doc(tok: str) -> str:
    return inspect.cleandoc(tok[3:-3])


@v_args(inline=True, meta=True)
class ToAst(Transformer):
    """Builds attrs nodes from Lark's tree; every node gets its span."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _span(self, meta) -> A.Span:
        if getattr(meta, "empty", True):
            return A.NOWHERE
        return A.Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, tok: Token) -> A.Span:
        return A.Span(self.path, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + 1)

    # -- top level
    def start(self, meta, *decls):
        return A.Program(list(decls), path=self.path)

    def documented(self, meta, *items):
        items = list(items)
        doc = None
        if items and isinstance(items[0], Token) and items[0].type == "DOC":
            doc = _doc(items.pop(0))
        decl = items.pop()
        decl.doc = doc
        decl.annots = [a for a in items if isinstance(a, A.Annotation)]
        return decl

    def annotation(self, meta, name, text):
        return A.Annotation(str(name), _unquote(text) if text is not None else None, span=self._span(meta))

    def game_decl(self, meta, name, *items):
        g = A.Game(_unquote(name), span=self._span(meta))
        for kind, value in items:
            if kind == "players":
                g.min_players, g.max_players = value
            else:
                g.source = value
        return g

    def players_range(self, meta, lo, hi):
        return ("players", (int(lo), int(hi)))

    def source_note(self, meta, text):
        return ("source", _unquote(text))

    def enum_decl(self, meta, name, *members):
        return A.Enum(str(name), list(members), span=self._span(meta))

    def enum_table(self, meta, name, fields, header, *rows):
        cols, cspan = header
        return A.Enum(str(name), [], fields, cols, list(rows), cspan, span=self._span(meta))

    def enum_member(self, meta, *items):
        annots = [a for a in items if isinstance(a, A.Annotation)]
        toks = [t for t in items if isinstance(t, Token)]
        name = toks[0]
        display = _unquote(toks[1]) if len(toks) > 1 else None
        return A.EnumMember(str(name), display, annots, span=self._tspan(name))

    def card_decl(self, meta, name, *items):
        fields = [f for f in items if isinstance(f, A.FieldDecl)]
        active = next((i for i in items if isinstance(i, list)), [])
        return A.CardKind(str(name), fields, active, span=self._span(meta))

    def field_decl(self, meta, name, typ, default):
        return A.FieldDecl(str(name), typ, default, span=self._tspan(name))

    def active_in(self, meta, *names):
        return [str(n) for n in names]

    def cards_decl(self, meta, kind, zone, header, *rows):
        cols, cspan = header
        return A.Cards(str(kind), str(zone), cols, list(rows), columns_span=cspan, span=self._span(meta))

    def table_header(self, meta, *names):
        return [str(n) for n in names], self._span(meta)

    def table_row(self, meta, *items):
        annots = [a for a in items if isinstance(a, A.Annotation)]
        cells = [c for c in items if not isinstance(c, A.Annotation)]
        return A.CardRow(cells, annots, span=self._span(meta))

    # -- types
    def named_type(self, meta, name):
        return A.TypeRef("named", str(name), span=self._span(meta))

    def set_type(self, meta, elem):
        return A.TypeRef("set", elem=elem, span=self._span(meta))

    def list_type(self, meta, elem):
        return A.TypeRef("list", elem=elem, span=self._span(meta))

    def bag_type(self, meta, elem):
        return A.TypeRef("bag", elem=elem, span=self._span(meta))

    def optional_type(self, meta, base):
        base.optional = True
        base.span = self._span(meta)
        return base

    # -- state
    @staticmethod
    def _owner(items):
        items = list(items)
        per_player = bool(items) and isinstance(items[0], Token) and items[0].type == "OWNER"
        return per_player, items[1:] if per_player else items

    def zone_decl(self, meta, *items):
        per_player, items = self._owner(items)
        name, kind = items[0], items[1]
        vis = next((str(t) for t in items[2:] if isinstance(t, Token) and t.type == "VISIBILITY"), "hidden")
        limit = items[-1] if not isinstance(items[-1], Token) else None
        return A.Zone(str(name), str(kind), per_player, vis, limit, span=self._span(meta))

    def var_decl(self, meta, *items):
        per_player, (name, key, typ, init, minimum) = self._owner(items)
        return A.Var(str(name), typ, init, per_player, minimum, key, span=self._span(meta))

    def var_key(self, meta, name, typ):
        return A.ParamDecl(str(name), typ, span=self._tspan(name))

    def param_decl(self, meta, *items):
        per_player, (name, typ, value) = self._owner(items)
        return A.Param(str(name), typ, value, per_player, span=self._span(meta))

    def event_decl(self, meta, name, params):
        return A.Event(str(name), params or [], span=self._span(meta))

    def param_list(self, meta, *params):
        return list(params)

    def param(self, meta, name, typ):
        return A.ParamDecl(str(name), typ, span=self._tspan(name))

    # -- behaviour
    def function_decl(self, meta, name, params, typ, body):
        return A.Function(str(name), params or [], typ, body, span=self._span(meta))

    def procedure_decl(self, meta, name, params, body):
        return A.Procedure(str(name), params or [], body, span=self._span(meta))

    def action_decl(self, meta, name, *items):
        params = [p for p in items if isinstance(p, A.ActionParam)]
        return A.Action(str(name), params, items[-1], span=self._span(meta))

    def typed_action_param(self, meta, name, typ):
        return A.ActionParam(str(name), type=typ, span=self._tspan(name))

    def ranged_action_param(self, meta, name, domain):
        return A.ActionParam(str(name), domain=domain, span=self._tspan(name))

    def abilities_decl(self, meta, *items):
        names = [_unquote(t) for t in items if isinstance(t, Token)]
        ab = A.Abilities(names, span=self._span(meta))
        for item in items:
            if isinstance(item, Token):
                continue
            if isinstance(item, A.Instant):
                ab.instant = item
            elif isinstance(item, A.Trigger):
                ab.triggers.append(item)
            else:
                ab.statics.append(item)
        return ab

    def ability(self, meta, *items):
        node = items[-1]
        if len(items) > 1:
            node.doc = _doc(items[0])
        return node

    def instant(self, meta, body):
        return A.Instant(body, span=self._span(meta))

    def static_mod(self, meta, name, op, value):
        return A.StaticMod(str(name), str(op), value, span=self._span(meta))

    def trigger(self, meta, pattern, cond, after, order, body):
        return A.Trigger(pattern, cond, after is not None, int(order) if order is not None else 0, body,
                         span=self._span(meta))

    def after_action(self, meta):
        return True

    def custom_pattern(self, meta, name, *binders):
        return A.EventPattern("custom", str(name), [str(b) for b in binders if b is not None], span=self._span(meta))

    def changed_pattern(self, meta, name, *binders):
        return A.EventPattern("changed", str(name), [str(b) for b in binders if b is not None], span=self._span(meta))

    def moved_pattern(self, meta, *binders):
        return A.EventPattern("moved", None, [str(b) for b in binders if b is not None], span=self._span(meta))

    def setup_decl(self, meta, body):
        return A.Setup(body, span=self._span(meta))

    def play_decl(self, meta, body):
        return A.Play(body, span=self._span(meta))

    def scoring_decl(self, meta, var, *steps):
        return A.Scoring(str(var), list(steps), span=self._span(meta))

    def score_step(self, meta, label, expr):
        return A.ScoreStep("score", _unquote(label), expr, span=self._span(meta))

    def tiebreak_step(self, meta, label, expr):
        return A.ScoreStep("tiebreak", _unquote(label), expr, span=self._span(meta))

    def lose_rule(self, meta, expr):
        return A.ScoreStep("lose", None, expr, span=self._span(meta))

    def variant_decl(self, meta, name, *decls):
        return A.Variant(_unquote(name), list(decls), span=self._span(meta))

    def invariant_decl(self, meta, name, cond):
        return A.Invariant(_unquote(name), cond, span=self._span(meta))

    def remove_decl(self, meta, name):
        return A.Remove(str(name), span=self._span(meta))

    # -- statements
    def block(self, meta, *stmts):
        return A.Block([s for s in stmts if s is not None], span=self._span(meta))

    def empty_stmt(self, meta):
        return None

    def let_stmt(self, meta, name, value):
        return A.Let(str(name), value, span=self._span(meta))

    def assign_stmt(self, meta, target, op, value):
        return A.Assign(target, str(op), value, span=self._span(meta))

    def transfer_stmt(self, meta, amount, source, dest):
        return A.Transfer(amount, source, dest, span=self._span(meta))

    def expr_stmt(self, meta, expr):
        return A.ExprStmt(expr, span=self._span(meta))

    def if_stmt(self, meta, cond, then, other):
        if isinstance(other, A.If):
            other = A.Block([other], span=other.span)
        return A.If(cond, then, other, span=self._span(meta))

    def for_stmt(self, meta, var, source, body):
        return A.For(str(var), source, body, span=self._span(meta))

    def repeat_stmt(self, meta, count, body):
        return A.Repeat(count, body, span=self._span(meta))

    def while_stmt(self, meta, cond, body):
        return A.While(cond, body, span=self._span(meta))

    def move_stmt(self, meta, cards, dest, place, facing):
        return A.Move(cards, dest, place or "top", facing, span=self._span(meta))

    def place_top(self, meta):
        return "top"

    def place_bottom(self, meta):
        return "bottom"

    def face_up(self, meta):
        return "up"

    def face_down(self, meta):
        return "down"

    def shuffle_stmt(self, meta, zone):
        return A.Shuffle(zone, span=self._span(meta))

    def peek_stmt(self, meta, cards, by):
        return A.Peek(cards, by, span=self._span(meta))

    def reveal_stmt(self, meta, cards):
        return A.Reveal(cards, span=self._span(meta))

    def turn_stmt(self, meta, cards, facing):
        return A.Turn(cards, facing, span=self._span(meta))

    def swap_stmt(self, meta, a, b):
        return A.Swap(a, b, span=self._span(meta))

    def announce_stmt(self, meta, value):
        return A.Announce(value, span=self._span(meta))

    def log_stmt(self, meta, *parts):
        return A.Log(list(parts), span=self._span(meta))

    def choice_opts(self, meta, by, verb, prompt):
        return by, (_unquote(verb) if verb is not None else None), (_unquote(prompt) if prompt is not None else None)

    def distinct(self, meta):
        return True

    def skip(self, meta, label):
        return _unquote(label)

    def choose_stmt(self, meta, target, options, distinct, skip, opts):
        by, verb, prompt = opts
        return A.Choose(target, options, by, prompt, verb, bool(distinct), skip, span=self._span(meta))

    def simultaneous_stmt(self, meta, var, players, target, options, distinct, skip, opts):
        by, verb, prompt = opts
        node = A.Simultaneous(str(var), players, target, options, prompt, verb, bool(distinct), skip,
                              span=self._span(meta))
        if by is not None:
            raise _SyntaxProblem(by.span, "'simultaneously' already says who decides; remove 'by'")
        return node

    def act_stmt(self, meta, *items):
        items = list(items)
        prompt = items.pop()
        by = items.pop()
        return A.Act([str(n) for n in items], by, _unquote(prompt) if prompt is not None else None,
                     span=self._span(meta))

    def resolve_stmt(self, meta, card):
        return A.Resolve(card, span=self._span(meta))

    def emit_stmt(self, meta, name, args):
        return A.Emit(str(name), args or [], span=self._span(meta))

    def require_stmt(self, meta, cond, message):
        return A.Require(cond, _unquote(message), span=self._span(meta))

    def end_stmt(self, meta):
        return A.EndGame(span=self._span(meta))

    # -- expressions
    def if_expr(self, meta, cond, then, other):
        return A.IfExpr(cond, then, other, span=self._span(meta))

    def or_op(self, meta, a, b):
        return A.BinOp("or", a, b, span=self._span(meta))

    def and_op(self, meta, a, b):
        return A.BinOp("and", a, b, span=self._span(meta))

    def not_op(self, meta, a):
        return A.UnOp("not", a, span=self._span(meta))

    def compare(self, meta, a, op, b):
        return A.BinOp(str(op), a, b, span=self._span(meta))

    def in_op(self, meta, a, b):
        return A.BinOp("in", a, b, span=self._span(meta))

    def not_in_op(self, meta, a, b):
        return A.BinOp("not in", a, b, span=self._span(meta))

    def binary(self, meta, a, op, b):
        return A.BinOp(str(op), a, b, span=self._span(meta))

    def neg(self, meta, a):
        return A.UnOp("-", a, span=self._span(meta))

    def field(self, meta, obj, name):
        return A.FieldOf(obj, str(name), span=self._span(meta))

    def index(self, meta, obj, key):
        return A.Index(obj, key, span=self._span(meta))

    def call(self, meta, name, inner):
        if isinstance(inner, A.Generator):
            return A.Call(str(name), [], inner, span=self._span(meta))
        return A.Call(str(name), inner or [], span=self._span(meta))

    def int_lit(self, meta, tok):
        return A.Literal(int(tok), span=self._span(meta))

    def str_lit(self, meta, tok):
        return A.Literal(_unquote(tok), span=self._span(meta))

    def true_lit(self, meta):
        return A.Literal(True, span=self._span(meta))

    def false_lit(self, meta):
        return A.Literal(False, span=self._span(meta))

    def none_lit(self, meta):
        return A.Literal(None, span=self._span(meta))

    def name(self, meta, tok):
        return A.Name(str(tok), span=self._span(meta))

    def list_lit(self, meta, inner):
        if isinstance(inner, A.Generator):
            return A.ListLit([], inner, span=self._span(meta))
        return A.ListLit(inner or [], span=self._span(meta))

    def set_lit(self, meta, items):
        return A.SetLit(items or [], span=self._span(meta))

    def bag_lit(self, meta, *items):
        return A.BagLit(list(items), span=self._span(meta))

    def bag_item(self, meta, name, value):
        return (str(name), value, self._tspan(name))

    def top_of(self, meta, count, source):
        return A.Slice("top", count, source, span=self._span(meta))

    def bottom_of(self, meta, count, source):
        return A.Slice("bottom", count, source, span=self._span(meta))

    def args(self, meta, *items):
        return list(items)

    def generator(self, meta, elem, *clauses):
        return A.Generator(elem, list(clauses), span=self._span(meta))

    def gen_clause(self, meta, var, source, cond):
        return A.GenClause(str(var), source, cond, span=self._span(meta))


class _SyntaxProblem(Exception):
    def __init__(self, span: A.Span, message: str):
        super().__init__(message)
        self.span = span
        self.message = message


_DECL_LINE = re.compile(
    r"^(game|enum|card|cards|player|zone|var|param|event|function|procedure|action|abilities|when|setup|play|"
    r"scoring|variant|remove|invariant|@|\"\"\")(\b|\s|$|\")"
)


def _decl_starts(lines: list) -> list:
    """Line indexes (0-based) where a top-level declaration starts, outside doc strings."""
    starts, in_doc = [], False
    for i, line in enumerate(lines):
        if not in_doc and _DECL_LINE.match(line):
            starts.append(i)
        if line.count('"""') % 2 == 1:
            in_doc = not in_doc
    return starts


def _first_error(text: str, path: str):
    try:
        return grammar_parser().parse(text), None
    except UnexpectedInput as err:
        return None, _syntax_diagnostic(err, path)
    except RecursionError:
        return None, Diagnostic(A.Span(path, 1, 1, 1, 2), "the file is nested too deeply to read")


def _parse_tree(text: str, path: str):
    """Parse; on an error, blank out the broken declaration and go on, to report every broken one."""
    diags: list = []
    lines = text.split("\n")
    while True:
        tree, diag = _first_error("\n".join(lines), path)
        if diag is None:
            return tree, diags
        diags.append(diag)
        starts = _decl_starts(lines)
        err = diag.span.line - 1
        at_start = err in starts and diag.span.col == 1
        before = [i for i in starts if i < err or (i == err and not at_start)]
        after = [i for i in starts if i > err or (i == err and at_start)]
        if not after or len(diags) >= MAX_SYNTAX_ERRORS:
            return None, diags
        first = before[-1] if before else err
        while before and first in before and before.index(first) > 0:
            prev = before[before.index(first) - 1]
            if not lines[prev].lstrip().startswith(('"""', "@")):
                break
            first = prev
        for i in range(first, after[0]):
            lines[i] = ""


def parse(text: str, path: str = "<string>") -> A.Program:
    """Parse a whole file. Raises WishSyntaxError listing every syntax error found."""
    tree, diags = _parse_tree(text, path)
    if diags or tree is None:
        raise WishSyntaxError(f"{len(diags)} syntax error(s) in {path}", diags, {path: text})
    try:
        prog = ToAst(path).transform(tree)
    except VisitError as err:
        inner = err.orig_exc
        if isinstance(inner, _SyntaxProblem):
            raise WishSyntaxError(inner.message, [Diagnostic(inner.span, inner.message)], {path: text}) from None
        if isinstance(inner, RecursionError):
            raise _too_deep(A.Span(path, 1, 1, 1, 2), None, text) from None
        raise inner from None
    except RecursionError:
        raise _too_deep(A.Span(path, 1, 1, 1, 2), None, text) from None
    depth, node = A.deepest(prog)
    if depth > MAX_DEPTH:
        raise _too_deep(node.span, depth, text)
    prog.source = text
    return prog


def _too_deep(span: A.Span, depth, text: str) -> WishSyntaxError:
    levels = f" ({depth} levels)" if depth else ""
    d = Diagnostic(span, f"this is nested too deeply{levels}; the limit is {MAX_DEPTH}",
                   "split it into functions or procedures")
    return WishSyntaxError(d.message, [d], {span.file: text})


def parse_file(path: str) -> A.Program:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise WishSyntaxError(f"{path}: no such file", [Diagnostic(None, f"{path}: no such file")]) from None
    except UnicodeDecodeError as err:
        head = p.read_bytes()[:err.start]
        line = head.count(b"\n") + 1
        col = err.start - (head.rfind(b"\n") + 1) + 1
        d = Diagnostic(A.Span(str(path), line, col, line, col + 1), f"the file is not UTF-8 text ({err.reason})")
        raise WishSyntaxError(d.message, [d], {str(path): ""}) from None
    except OSError as err:
        raise WishSyntaxError(f"{path}: {err.strerror}", [Diagnostic(None, f"{path}: {err.strerror}")]) from None
    return parse(text, str(path))
