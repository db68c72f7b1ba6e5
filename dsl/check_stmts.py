"""Stage 2, statements: what each statement may do, the types of what it writes and reads, and who decides.

A mixin of the checker (`dsl.check.Checker`), like `check_exprs.ExprChecks`: every `s_NAME` method checks one
statement class of `dsl.ast`, reporting through the checker's `error`.
"""
from __future__ import annotations

from typing import Optional

import attrs

from . import ast as A
from . import types as T
from .errors import closest
from .parser import RESERVED as KEYWORDS
from .refs import Ref, RefKind
from .scope import BUILTINS, Scope


class StmtChecks:
    """Statement checks of the checker (a mixin: `self` is a `dsl.check.Checker`)."""

    def block(self, block: A.Block, sc: Scope) -> None:
        sc = sc.child()
        for st in block.stmts:
            self.stmt(st, sc)

    def stmt(self, st, sc: Scope) -> None:
        method = getattr(self, "s_" + type(st).__name__)
        method(st, sc)

    def s_Let(self, st: A.Let, sc):
        self.no_shadow(st, st.name)
        t = self.expr(st.value, sc)
        sc.locals[st.name] = t

    @staticmethod
    def empty_bag(e, t: T.Type, want: T.Type) -> T.Type:
        """`{}` where a bag is expected is the empty bag of that enum."""
        if isinstance(e, A.SetLit) and not e.items and want.kind == "bag":
            e.ty = want.plain()
            return e.ty
        return t

    def s_Assign(self, st: A.Assign, sc):
        tt = self.target(st.target, sc)
        vt = self.empty_bag(st.value, self.expr(st.value, sc), tt)
        if st.op == "=":
            if not T.assignable(vt, tt):
                self.error(st.value, f"expected {tt}, found {vt}")
        elif tt.kind not in ("int", "bag", "any"):
            self.error(st, f"'{st.op}' needs a number or a bag; the target is {tt}")
        elif not T.assignable(vt, tt.plain()):
            self.error(st.value, f"expected {tt}, found {vt}")

    def s_Transfer(self, st: A.Transfer, sc):
        at = self.expr(st.amount, sc)
        if at.kind not in ("int", "bag", "any"):
            self.error(st.amount, f"'transfer' moves a number or a bag, found {at}")
        for place in (st.source, st.dest):
            pt = self.target(place, sc)
            if not T.assignable(at, pt.plain()):
                self.error(place, f"cannot transfer {at} to or from a place that holds {pt}")

    def target(self, e: A.Expr, sc: Scope) -> T.Type:
        """Type of an assignable place (also stored as its `ty`); reports what cannot be assigned."""
        e.ty = self._target(e, sc)
        return e.ty

    def _target(self, e: A.Expr, sc: Scope) -> T.Type:
        if isinstance(e, A.Name):
            if e.name in sc.locals:
                e.ref = Ref(RefKind.LOCAL, e.name)
                return sc.locals[e.name]
            if e.name in self.sym.vars:
                v, t = self.sym.vars[e.name]
                if v.per_player:
                    self.error(e, f"'{e.name}' belongs to each player: write PLAYER.{e.name}")
                elif v.keyed_by is not None:
                    self.error(e, f"'{e.name}' has one value per {self.sym.var_keys[e.name]}: write {e.name}[…]")
                e.ref = Ref(RefKind.VAR, e.name)
                return t
            if e.name in self.sym.params:
                self.error(e, f"'{e.name}' is a parameter; parameters cannot be assigned",
                           "declare it with 'var' if it changes during play")
                return T.ANY
            self.unknown(e, "variable", e.name, [*self.sym.vars, *sc.locals])
            return T.ANY
        if isinstance(e, A.FieldOf):
            ot = self.expr(e.obj, sc)
            if ot.kind == "player" and e.name in self.sym.vars and self.sym.vars[e.name][0].per_player:
                e.ref = Ref(RefKind.PVAR, e.name)
                return self.sym.vars[e.name][1]
            if ot.kind == "any":
                return T.ANY
            pvars = [n for n, (v, _) in self.sym.vars.items() if v.per_player]
            if ot.kind == "player" and e.name not in self.sym.params and e.name not in self.sym.zones:
                self.unknown(e, "player variable", e.name, pvars)
                return T.ANY
            self.error(e, f"'{e.name}' of a {ot} cannot be assigned", "only variables ('var') change")
            return T.ANY
        if isinstance(e, A.Index):
            return self.e_Index(e, sc)
        self.error(e, "this cannot be assigned to", "assign to a variable: NAME = … or PLAYER.NAME = …")
        return T.ANY

    def s_ExprStmt(self, st: A.ExprStmt, sc):
        e = st.expr
        if isinstance(e, A.Call) and e.name in self.sym.procedures:
            self.call_proc(e, sc)
        elif isinstance(e, A.Call) and e.name in self.sym.actions:
            self.error(e, f"'{e.name}' is an action; offer it with: act one of {e.name} by PLAYER")
        elif isinstance(e, A.Call) and e.name not in self.sym.functions and e.name not in BUILTINS:
            self.unknown(e, "procedure", e.name, self.sym.procedures)
            for a in e.args:
                self.expr(a, sc)
        else:
            before = len(self.diags)
            self.expr(e, sc)
            word = statement_word(e) if len(self.diags) > before else None
            if word is not None:  # `shufle deck`: a misspelt statement, not a name and an expression
                d = self.diags[before]
                self.diags[before] = attrs.evolve(d, hint=f"did you mean the statement '{word}'?")
                self.typo_line = (e.span.file, e.span.line)
            elif len(self.diags) == before and self.typo_line != (e.span.file, e.span.line):
                self.error(e, "this expression does nothing here; a statement must have an effect",
                           "call a procedure, or use 'let' to keep a value")

    def call_proc(self, e: A.Call, sc):
        p, ptypes = self.sym.procedures[e.name]
        e.ref = Ref(RefKind.PROC, e.name)
        if e.gen is not None:
            self.error(e, f"procedure '{e.name}' takes arguments, not a generator")
        self.args(e, e.args, ptypes, sc, f"procedure '{e.name}'")

    def args(self, node, args, ptypes, sc, what):
        if len(args) != len(ptypes):
            self.error(node, f"{what} takes {len(ptypes)} argument(s), found {len(args)}")
        for a, pt in zip(args, ptypes):
            self.expect(a, pt, sc, "an argument")
        for a in args[len(ptypes):]:
            self.expr(a, sc)

    def s_If(self, st: A.If, sc):
        self.expect(st.cond, T.BOOL, sc, "a condition")
        self.block(st.then, sc)
        if st.other is not None:
            self.block(st.other, sc)

    def s_For(self, st: A.For, sc):
        t = self.expr(st.source, sc)
        et = t.element()
        if et is None:
            self.error(st.source, f"'for' needs a list, set or zone, found {t}")
            et = T.ANY
        inner = sc.child()
        self.no_shadow(st, st.var)
        inner.locals[st.var] = et
        self.block(st.body, inner)

    def s_Repeat(self, st: A.Repeat, sc):
        self.expect(st.count, T.INT, sc, "a repeat count")
        self.block(st.body, sc)

    def s_While(self, st: A.While, sc):
        self.expect(st.cond, T.BOOL, sc, "a condition")
        self.block(st.body, sc)

    def cards_expr(self, e, sc, what: str) -> T.Type:
        t = self.expr(e, sc)
        if t.kind == "card" or t.kind == "any":
            return t
        et = t.element()
        if t.kind in ("list", "zone") and et is not None and et.kind in ("card", "any"):
            return t
        self.error(e, f"{what} needs a card, a list of cards or a zone, found {t}")
        return T.ANY

    def zone_expr(self, e, sc, what: str) -> T.Type:
        t = self.expr(e, sc)
        if t.kind not in ("zone", "any"):
            self.error(e, f"{what} needs a zone, found {t}")
        return t

    def s_Move(self, st: A.Move, sc):
        ct = self.cards_expr(st.cards, sc, "'move'")
        zt = self.zone_expr(st.dest, sc, "'move … to'")
        ck = ct.name if ct.kind in ("card", "zone") else (ct.elem.name if ct.elem else None)
        if ck and zt.kind == "zone" and zt.name and ck != zt.name:
            self.error(st.dest, f"zone holds {zt.name} cards; these are {ck} cards")

    def s_Shuffle(self, st, sc):
        self.zone_expr(st.zone, sc, "'shuffle'")

    def s_Peek(self, st, sc):
        self.cards_expr(st.cards, sc, "'peek'")
        self.expect(st.by, T.PLAYER, sc, "who peeks")

    def s_Reveal(self, st, sc):
        self.cards_expr(st.cards, sc, "'reveal'")

    def s_Turn(self, st, sc):
        self.cards_expr(st.cards, sc, "'turn'")

    def s_Swap(self, st, sc):
        self.expect(st.first, T.card(None), sc, "'swap'")
        self.expect(st.second, T.card(None), sc, "'swap … with'")

    def s_Announce(self, st, sc):
        t = self.expr(st.value, attrs.evolve(sc, pure=True))
        if t.kind in ("card", "zone", "list", "set", "bag"):
            self.error(st.value, f"an announcement is a text, number, yes/no or enum value, found {t}")

    def s_Log(self, st, sc):
        for p in st.parts:
            self.expr(p, sc)

    def choice(self, node, target, options, by, sc, decider_known: bool):
        ot = self.expr(options, sc)
        et = ot.element()
        if et is None:
            self.error(options, f"choose needs a list, set, zone or enum to choose from, found {ot}")
            et = T.ANY
        if getattr(node, "skip", None) is not None:
            et = et.opt()
        if by is not None:
            self.expect(by, T.PLAYER, sc, "who chooses")
        elif not decider_known:
            if sc.you:
                pass
            else:
                self.error(node, "say who chooses: add 'by PLAYER'")
        if isinstance(target, A.Name) and target.name not in sc.locals and target.name not in self.sym.vars:
            self.no_shadow(target, target.name)
            target.ref = Ref(RefKind.LOCAL, target.name)
            sc.locals[target.name] = et
        else:
            tt = self.target(target, sc)
            if not T.assignable(et, tt):
                self.error(target, f"the options are {et}; this place holds {tt}")

    def s_Choose(self, st: A.Choose, sc):
        self.choice(st, st.target, st.options, st.by, sc, False)

    def s_Simultaneous(self, st: A.Simultaneous, sc):
        pt = self.expr(st.players, sc)
        if pt.element() not in (T.PLAYER, T.ANY):
            self.error(st.players, f"'simultaneously' needs a list of players, found {pt}")
        inner = sc.child()
        self.no_shadow(st, st.var)
        inner.locals[st.var] = T.PLAYER
        if isinstance(st.target, A.Name):
            self.error(st.target, "each player's answer must be kept per player: choose into PLAYER.VAR")
        self.choice(st, st.target, st.options, None, inner, True)

    def s_Act(self, st: A.Act, sc):
        for n in st.actions:
            if n not in self.sym.actions:
                self.unknown(st, "action", n, self.sym.actions)
        self.expect(st.by, T.PLAYER, sc, "who acts")

    def s_Resolve(self, st, sc):
        self.expect(st.card, T.card(None), sc, "'resolve'")

    def s_Emit(self, st: A.Emit, sc):
        if st.name not in self.sym.events:
            self.unknown(st, "event", st.name, self.sym.events)
            for a in st.args:
                self.expr(a, sc)
            return
        _, ptypes = self.sym.events[st.name]
        self.args(st, st.args, ptypes, sc, f"event '{st.name}'")

    def s_Require(self, st: A.Require, sc):
        if not sc.in_action:
            self.error(st, "'require' belongs at the start of an action",
                       "use 'if' to decide, or move this into an action")
        self.expect(st.cond, T.BOOL, attrs.evolve(sc, pure=True), "a requirement")

    def s_EndGame(self, st, sc):
        pass


STATEMENT_WORDS = tuple(sorted(KEYWORDS - {"in", "else", "then", "and", "or", "not", "true", "false", "none"}))


def statement_word(e) -> Optional[str]:
    """The statement keyword a bare unknown name at the start of a statement misspells (`shufle`), or None."""
    if not isinstance(e, A.Name):
        return None
    return closest(e.name, STATEMENT_WORDS)
