"""How a game ends, explained from its own rules.

Two things end a game: the play sequence running out (its loops stop when their condition fails) and an
`end game` statement. For a loop of the play sequence (or of a procedure it calls) the sheet says how long it
goes on and where each value in its condition is changed, and under which conditions; for `end game` it says in
which rule and under which conditions. The result is a list of steps (`Step`), read as a rulebook would.
"""
from __future__ import annotations

from dsl import ast as A
from dsl.refs import Ref, RefKind

from .english import English
from .words import Step, cap, humanize, join_and, quote, sentence, walk


def guarded(block, conds: list, out: list, keep) -> None:
    """Append (statement, the conditions it runs under) for every statement under `block` that `keep` accepts."""
    if block is None:
        return
    for st in block.stmts:
        if keep(st):
            out.append((st, list(conds)))
        if isinstance(st, A.If):
            guarded(st.then, conds + [st.cond], out, keep)
            guarded(st.other, conds + [A.UnOp("not", st.cond, span=st.cond.span)], out, keep)
        elif isinstance(st, (A.For, A.Repeat, A.While)):
            guarded(st.body, conds, out, keep)


def rules(decls: list) -> list:
    """(name of the rule, its block) of every procedure, action, reaction and card ability."""
    out = []
    for d in decls:
        if isinstance(d, A.Procedure):
            out.append((cap(humanize(d.name)), d.body))
        elif isinstance(d, A.Action):
            out.append((f"the action {cap(humanize(d.name))}", d.body))
        elif isinstance(d, A.Trigger):
            out.append(("a rule that reacts", d.body))
        elif isinstance(d, A.Abilities):
            cards = join_and([quote(c) for c in d.cards])
            if d.instant is not None:
                out.append((cards, d.instant.body))
            out.extend((cards, t.body) for t in d.triggers)
    return out


def when(en: English, conds: list) -> str:
    return ", if " + " and ".join(en.expr(c) for c in conds) if conds else ""


def loops(sym) -> list:
    """The `while` loops of the play sequence and of the procedures it calls directly."""
    blocks = [sym.play.body] if sym.play is not None else []
    for st in blocks[0].stmts if blocks else []:
        if isinstance(st, A.ExprStmt) and isinstance(st.expr, A.Call) and st.expr.name in sym.procedures:
            blocks.append(sym.procedures[st.expr.name][0].body)
    found = []
    for b in blocks:
        guarded(b, [], found, lambda s: isinstance(s, A.While))
    return [w for w, _ in found if not (isinstance(w.cond, A.Literal) and w.cond.value is True)]


def stopping_value(cond, var: str):
    """The value of a yes-or-no variable that stops a loop on `cond` (`not v` → true, `v` → false), or None."""
    if isinstance(cond, A.UnOp) and cond.op == "not" and isinstance(cond.operand, A.Name) and cond.operand.name == var:
        return True
    if isinstance(cond, A.Name) and cond.name == var:
        return False
    return None


def changes(en: English, decls: list, var: str, stop=None) -> list:
    """Where a shared variable is set, as steps: "It becomes true in Caravan moves, if the caravan deck is empty."
    With `stop`, only the settings to that value; a variable with an `@reads` phrase lists only the places
    ("Caravan moves, if the Caravan deck is empty.")."""
    out = []
    named = stop is not None and en.sym.vars[var][0].reads is not None
    for name, block in rules(decls):
        found: list = []
        guarded(block, [], found,
                lambda s: isinstance(s, A.Assign) and isinstance(s.target, A.Name) and s.target.name == var)
        for st, conds in found:
            if stop is not None and not (isinstance(st.value, A.Literal) and st.value.value is stop):
                continue
            text = f"{name}{when(en, conds)}" if named else f"it becomes {en.expr(st.value)} in {name}{when(en, conds)}"
            out.append(Step(sentence(text)))
    return out


def reads_in_pass(sym, loop: A.While, names: list) -> bool:
    """Does a pass of `loop` (its body and every procedure it calls, transitively) read one of the variables of
    its condition? Then a pass may stop early, and the sheet must not say that a begun pass is played to its end."""
    todo, seen = [loop.body], set()
    while todo:
        node = todo.pop()
        targets = {id(n.target) for n in walk(node) if isinstance(n, A.Assign)}
        for n in walk(node):
            if isinstance(n, A.Name) and n.name in names and id(n) not in targets:
                return True
            if isinstance(n, A.ExprStmt) and isinstance(n.expr, A.Call) and n.expr.name in sym.procedures \
                    and n.expr.name not in seen:
                seen.add(n.expr.name)
                todo.append(sym.procedures[n.expr.name][0])
    return False


def explain_end(en: English, sym, decls: list) -> list:
    """Steps that explain when the game ends."""
    out = []
    for w in loops(sym):
        names = sorted({n.name for n in walk(w.cond) if isinstance(n, A.Name)} & set(sym.vars))
        children = []
        for v in names:
            stop = stopping_value(w.cond, v)
            ch = changes(en, decls, v, stop)
            reading = en.var_reading(A.Name(v, ref=Ref(RefKind.VAR, v)), negated=not stop) if stop is not None else None
            if ch:
                children.append(Step(f"{quote(cap(reading))} is set in:" if reading and en.sym.vars[v][0].reads
                                     else f"{cap(en.varname(v))}:", ch))
        body = en.steps(w.body)
        first = body[0].text.rstrip(".") if len(body) == 1 and not reads_in_pass(sym, w, names) else None
        if first:
            text = (f"play goes on as long as {en.expr(w.cond)}, checked before each pass of {quote(first)}: a pass "
                    "already begun is played to its end by everyone, then the game ends once the play sequence is "
                    "over")
        else:
            text = (f"play goes on as long as {en.expr(w.cond)}; when that fails, the game ends once the play "
                    "sequence is over")
        out.append(Step(sentence(text), children))
    for name, block in rules(decls):
        found: list = []
        guarded(block, [], found, lambda s: isinstance(s, A.EndGame))
        for _, conds in found:
            out.append(Step(sentence(f"the game ends at once in {name}{when(en, conds)}")))
    if not out:
        out.append(Step("The game ends when the play sequence is over."))
    return out

