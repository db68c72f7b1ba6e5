"""Lark's parse tree → the syntax tree of `dsl.ast`: attrs nodes, each with its source span."""
from __future__ import annotations

import inspect

from lark import Token, Transformer, v_args

import attrs

from . import ast as A
from .limits import number_too_long, too_many_digits


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


def _flat(decls) -> list:
    """Declarations in order, an extends and the variant after it (`extends_then_variant`, a list) as two."""
    out = []
    for d in decls:
        if isinstance(d, list):
            out.extend(d)
        else:
            out.append(d)
    return out


@v_args(inline=True, meta=True)
class ToAst(Transformer):
    """Builds attrs nodes from Lark's tree; every node gets its span."""

    def __init__(self, path: str, lines_before: int = 0):
        super().__init__(visit_tokens=False)  # no method per terminal: tokens are read by the rules' methods
        self.path = path
        self.lines_before = lines_before  # the tree is of a part of the file that starts after this many lines
        self.problems: list = []  # (span, message) of numbers too long, all reported after the tree is built

    def _int(self, tok: Token) -> int:
        digits = too_many_digits(str(tok))
        if digits:
            self.problems.append((self._tspan(tok), number_too_long(digits)))
            return 0
        return int(tok)

    def _span(self, meta) -> A.Span:
        if getattr(meta, "empty", True):
            return A.NOWHERE
        k = self.lines_before
        return A.Span(self.path, meta.line + k, meta.column, meta.end_line + k, meta.end_column)

    def _tspan(self, tok: Token) -> A.Span:
        k = self.lines_before
        return A.Span(self.path, tok.line + k, tok.column, (tok.end_line or tok.line) + k,
                      tok.end_column or tok.column + 1)

    # -- top level
    def start(self, meta, *decls):
        return A.Program(_flat(decls), path=self.path)

    def documented(self, meta, *items):
        items = list(items)
        doc = None
        if items and isinstance(items[0], Token) and items[0].type == "DOC":
            doc = _doc(items.pop(0))
        decl = items.pop()
        first = decl[0] if isinstance(decl, list) else decl  # an extends and the variant after it: the extends'
        first.doc = doc
        first.annots = [a for a in items if isinstance(a, A.Annotation)]
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
        return ("players", (self._int(lo), self._int(hi)))

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

    def trigger(self, meta, name, pattern, cond, after, order, body):
        return A.Trigger(pattern, cond, after is not None, self._int(order) if order is not None else 0, body,
                         str(name) if name is not None else None, span=self._span(meta))

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

    def heuristic_decl(self, meta, var, *items):
        return A.Heuristic(str(var), [t for t in items if isinstance(t, A.Estimate)],
                           [t for t in items if isinstance(t, A.Advice)], span=self._span(meta))

    def estimate(self, meta, weight, label, expr):
        return A.Estimate(self._int(weight.update(value=str(weight)[:-1])), _unquote(label), expr,
                          span=self._span(meta))

    def advice(self, meta, action, label, cond):
        return A.Advice(str(action), _unquote(label), cond, span=self._span(meta))

    def variant_decl(self, meta, name, *decls):
        return A.Variant(_unquote(name), _flat(decls), span=self._span(meta))

    def invariant_decl(self, meta, name, cond):
        return A.Invariant(_unquote(name), cond, span=self._span(meta))

    def table_decl(self, meta, *parts):
        return A.Table(list(parts), span=self._span(meta))

    def _part(self, meta, form, items):
        items = list(items)
        doc = _doc(items.pop(0)) if items and isinstance(items[0], Token) and items[0].type == "DOC" else None
        var = str(items.pop(0)) if form != "shared" else None
        cells = items.pop(0) if form == "board" else None
        return A.TablePart(form, var, cells, items, doc, span=self._span(meta))

    def table_board(self, meta, *items):
        return self._part(meta, "board", items)

    def table_panel(self, meta, *items):
        return self._part(meta, "panel", items)

    def table_shared(self, meta, *items):
        return self._part(meta, "shared", items)

    def show_value(self, meta, label, expr):
        return A.ShowItem(_unquote(label), expr, span=self._span(meta))

    def show_zone(self, meta, expr, rows=None, beside=None, *marks):
        return A.ShowItem(None, expr, zone=True, rows=rows, marks=list(marks), beside=beside, span=self._span(meta))

    def zone_mark(self, meta, label, cards):
        return A.ZoneMark(_unquote(label), cards, span=self._span(meta))

    def remove_decl(self, meta, name):
        return A.Remove(str(name), span=self._span(meta))

    def remove_named(self, meta, name):
        return A.Remove(_unquote(name), quoted=True, span=self._span(meta))

    def change_decl(self, meta, decl):
        return attrs.evolve(decl, merge=True, span=self._span(meta))

    def extends_decl(self, meta, path, variant):
        return A.Extends(_unquote(path), _unquote(variant) if variant is not None else None, span=self._span(meta))

    def extends_then_variant(self, meta, path, variant):
        """Two declarations: the extends (without a variant of its own) and the variant declared after it."""
        k = self.lines_before
        span = A.Span(self.path, meta.line + k, meta.column, path.end_line + k, path.end_column)
        return [A.Extends(_unquote(path), None, span=span), variant]

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
            raise SyntaxProblem(by.span, "'simultaneously' already says who decides; remove 'by'")
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
        return A.Literal(self._int(tok), span=self._span(meta))

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


class SyntaxProblem(Exception):
    def __init__(self, span: A.Span, message: str):
        super().__init__(message)
        self.span = span
        self.message = message
