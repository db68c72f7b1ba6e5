"""English for statements: the steps of effects, procedures and actions."""
from __future__ import annotations

import re

from dsl import ast as A
from dsl.refs import RefKind, kind_of

from .english_base import EnglishBase
from .english_exprs import turn_order_from
from .words import (WORD_NUMBERS, Step, article, base_form, cap, conjugate, humanize, join_and, occurrences,
                    possessive, quote, sentence, singular)


def s_let(en: EnglishBase, st: A.Let) -> Step:
    name = en.local(st.name, st.value.ty)
    ty = st.value.ty.plain() if st.value.ty is not None else None
    if ty is not None and ty.kind == "bool" and isinstance(st.value, (A.BinOp, A.UnOp, A.Call)):
        return Step(sentence(f"let {name} be true if {en.expr(st.value)}, otherwise false"))
    return Step(sentence(f"let {name} be {en.expr(st.value)}"))


def s_assign(en: EnglishBase, st: A.Assign) -> Step:
    owner, noun = en.var_noun(st.target)
    v = st.value
    ty = st.target.ty
    # list append and removal: x = x + [a] / x = remove(x, a)
    if st.op == "=" and isinstance(v, A.BinOp) and v.op == "+" and _same(v.left, st.target):
        return Step(sentence(f"add {en.expr(v.right)} to {en.expr(st.target)}"))
    if st.op == "=" and isinstance(v, A.Call) and v.name == "remove" and _same(v.args[0], st.target):
        return Step(sentence(f"remove {en.expr(v.args[1])} from {en.expr(st.target)}"))
    if st.op == "=" and isinstance(v, A.Literal) and isinstance(v.value, bool) and en.var_reading(st.target):
        return Step(sentence("from now on, " + en.var_reading(st.target, negated=not v.value)))
    if st.op == "=" and ty is not None and ty.kind == "bool" and isinstance(v, (A.BinOp, A.UnOp, A.Call)):
        return Step(sentence(f"set {en.expr(st.target)} to whether {en.expr(v)}"))
    if st.op == "=":
        value = "nobody" if isinstance(v, A.Literal) and v.value is None and ty is not None and \
            ty.plain().kind == "player" else en.expr(v)
        if owner is not None:
            return Step(sentence(f"set {possessive(owner)} {noun} to {value}"))
        return Step(sentence(f"set {noun} to {value}"))
    amount = en.expr(v)
    if owner is not None:
        verb = "gain" if st.op == "+=" else "lose"
        what = noun
        if ty is not None and ty.kind == "int" and not re.fullmatch(r"\d+", amount):
            return Step(sentence(f"{owner} {conjugate(owner, verb)} as many {noun} as {amount}"))
        if ty is not None and ty.kind == "int":
            what = singular(noun) if amount == "1" else noun
            return Step(sentence(f"{owner} {conjugate(owner, verb)} {amount} {what}"))
        if ty is not None and ty.kind == "bag":
            return Step(sentence(f"{owner} {conjugate(owner, verb)} {amount}"))
        return Step(sentence(f"{owner} {conjugate(owner, verb)} {amount} ({noun})"))
    if st.op == "+=":
        return Step(sentence(f"add {amount} to {noun}"))
    return Step(sentence(f"take {amount} from {noun}"))


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, A.Name):
        return a.name == b.name
    if isinstance(a, A.FieldOf):
        return a.name == b.name and _same(a.obj, b.obj)
    return False


def s_transfer(en: EnglishBase, st: A.Transfer) -> Step:
    if _same(st.amount, st.source):
        return Step(sentence(f"move everything in {en.expr(st.source)} to {en.expr(st.dest)}"))
    return Step(sentence(f"move {en.expr(st.amount)} from {en.expr(st.source)} to {en.expr(st.dest)}"))


def s_exprstmt(en: EnglishBase, st: A.ExprStmt) -> Step:
    e = st.expr
    if isinstance(e, A.Call):
        return Step(sentence(en.proc_call(e)))
    return Step(sentence(en.expr(e)))


def s_if(en: EnglishBase, st: A.If) -> list:
    out = [Step(f"If {en.expr(st.cond)}:", en.steps(st.then))]
    other = st.other
    while other is not None:
        if len(other.stmts) == 1 and isinstance(other.stmts[0], A.If):
            nested = other.stmts[0]
            out.append(Step(f"Otherwise, if {en.expr(nested.cond)}:", en.steps(nested.then)))
            other = nested.other
        else:
            out.append(Step("Otherwise:", en.steps(other)))
            other = None
    return out


def each_role(en: EnglishBase, src) -> str:
    """How a loop's player reads as the subject of its one step: "each other player (in turn order after you)"."""
    if isinstance(src, A.Name) and kind_of(src) is RefKind.PLAYERS:
        return "each player"
    start = turn_order_from(src.left, src.right) if isinstance(src, A.BinOp) and src.op == "+" else None
    if start is not None:
        return f"each player (in turn order from {en.expr(start)})"
    if isinstance(src, A.Call) and src.name == "after" and src.args:
        who = en.expr(src.args[0])
        return f"each other player (in turn order {'from' if who == 'you' else 'after'} {who})"
    return ""


def s_for(en: EnglishBase, st: A.For) -> Step:
    role = each_role(en, st.source)
    if role and len(st.body.stmts) == 1 and occurrences(st.body, st.var) == 1:
        saved = dict(en.roles)
        en.roles[st.var] = role
        try:
            only = en.steps(st.body)
        finally:
            en.roles = saved
        if len(only) == 1 and not only[0].children and only[0].text.startswith(cap(role) + " "):
            return only[0]
    var_ty = st.source.ty.element() if st.source.ty is not None else None
    noun = en.bare(st.var, var_ty)
    src = st.source
    if isinstance(src, A.Name) and kind_of(src) is RefKind.PLAYERS:
        head = f"For each {noun}:" if noun != "player" else "For each player:"
    elif isinstance(src, A.Name) and kind_of(src) is RefKind.ENUM:
        head = f"For each {noun}:"
    elif isinstance(src, A.BinOp) and src.op == "+" and turn_order_from(src.left, src.right) is not None:
        head = f"For each {noun}, in turn order from {en.expr(turn_order_from(src.left, src.right))}:"
    elif isinstance(src, A.Call) and src.name == "after" and src.args:
        start = en.expr(src.args[0])
        head = f"For each other {noun}, in turn order {'from' if start == 'you' else 'after'} {start}:"
    else:
        head = f"For each {noun} in {en.expr(src)}:"
    return Step(head, en.steps(st.body))


def s_repeat(en: EnglishBase, st: A.Repeat) -> Step:
    c = st.count
    if isinstance(c, A.Literal) and c.value in WORD_NUMBERS:
        head = cap(WORD_NUMBERS[c.value]) + ":"
    elif isinstance(c, A.Literal) or (isinstance(c, (A.Name, A.FieldOf)) and " of " not in en.expr(c)):
        text = en.expr(c)  # a rule value reads as its value: "1" is "once", not "1 times"
        head = cap(WORD_NUMBERS[int(text)]) + ":" if text.isdigit() and int(text) in WORD_NUMBERS else \
            f"Repeat {text} times:"
    else:
        head = f"Repeat as many times as {en.expr(c)}:"
    return Step(head, en.steps(st.body))


def s_while(en: EnglishBase, st: A.While) -> Step:
    if isinstance(st.cond, A.Literal) and st.cond.value is True:
        return Step("Again and again, until the game ends:", en.steps(st.body))
    return Step(f"As long as {en.expr(st.cond)}:", en.steps(st.body))


def s_move(en: EnglishBase, st: A.Move) -> Step:
    s = f"move {en.expr(st.cards)} to {en.expr(st.dest)}"
    if st.place == "bottom":
        s += " (at the bottom)"
    if st.facing:
        s += f" face {st.facing}"
    return Step(sentence(s))


def s_shuffle(en: EnglishBase, st: A.Shuffle) -> Step:
    return Step(sentence(f"shuffle {en.expr(st.zone)}"))


def s_peek(en: EnglishBase, st: A.Peek) -> Step:
    who = en.expr(st.by)
    return Step(sentence(f"{who} {conjugate(who, 'look')} at {en.expr(st.cards)} (secretly)"))


def s_reveal(en: EnglishBase, st: A.Reveal) -> Step:
    return Step(sentence(f"reveal {en.expr(st.cards)} to everyone"))


def s_turn(en: EnglishBase, st: A.Turn) -> Step:
    return Step(sentence(f"turn {en.expr(st.cards)} face {st.facing}"))


def s_swap(en: EnglishBase, st: A.Swap) -> Step:
    return Step(sentence(f"swap {en.expr(st.first)} with {en.expr(st.second)}"))


def s_announce(en: EnglishBase, st: A.Announce) -> Step:
    return Step(sentence(f"announce {en.expr(st.value)}"))


def s_log(en: EnglishBase, st: A.Log) -> Step:
    """A log line: "(Note: you declare the end.)", "(Note: Round: the round.)"."""
    texts = [isinstance(p, A.Literal) and isinstance(p.value, str) for p in st.parts]
    first = st.parts[0] if st.parts else None
    subject = first is not None and not texts[0] and first.ty is not None and first.ty.kind == "player"
    parts = []
    for i, (p, is_text) in enumerate(zip(st.parts, texts)):
        if is_text:
            text = p.value
            if not subject and i + 1 < len(st.parts) and not texts[i + 1] and not text.endswith((":", ",", ";")):
                text += ":"
            parts.append(base_form(text) if subject and i == 1 and parts[0] == "you" else text)
        else:
            parts.append(en.expr(p))
    return Step("(Note: " + sentence(" ".join(parts)) + ")")


def _options(en: EnglishBase, options, target) -> str:
    if isinstance(options, A.Name) and kind_of(options) is RefKind.ENUM:
        return article(options.name)
    if isinstance(options, A.ListLit) and options.gen is None and all(
            isinstance(i, A.Literal) and isinstance(i.value, str) for i in options.items):
        return join_and([quote(i.value) for i in options.items], "or")
    et = options.ty.element() if options.ty is not None else None
    noun = en.type_noun(et) if et is not None else "one"
    return f"{article(noun)} from {en.expr(options)}"


def _target(en: EnglishBase, target, options=None) -> str:
    if isinstance(target, A.Name):
        ty = target.ty
        if ty is None and options is not None and options.ty is not None:
            ty = options.ty.element()
        return en.local(target.name, ty)
    return en.expr(target)


DANGLING = {"the", "a", "an", "their", "your", "his", "her", "its"}  # a choice's verb that cannot end a phrase
PREPOSITIONS = {"from", "to", "at", "on", "with", "in", "into", "onto", "for"}  # a purpose ending so goes last


def s_choose(en: EnglishBase, st: A.Choose) -> Step:
    who = en.subject_of(st.by)
    if isinstance(st.target, A.Name):
        en.choosers[st.target.name] = who
    texts = isinstance(st.options, A.ListLit) and st.options.gen is None and st.options.items and all(
        isinstance(i, A.Literal) and isinstance(i.value, str) for i in st.options.items)
    if texts and isinstance(st.target, A.Name):
        en.choices[st.target.name] = who
        s = f"{who} {conjugate(who, 'choose')} {_options(en, st.options, st.target)}"
        return Step(sentence(s + (f" ({quote(st.prompt)})" if st.prompt else "")))
    tgt = _target(en, st.target, st.options)
    named = isinstance(st.target, A.Name) and len(st.target.name) <= 2 and tgt.endswith(" " + st.target.name)
    verb = st.verb if st.verb and ":" not in st.verb and st.verb.split()[-1].lower() not in DANGLING else None
    reading = (en.names or {}).get(st.target.name) if isinstance(st.target, A.Name) else None
    if reading is not None:
        whole_enum = isinstance(st.options, A.Name) and kind_of(st.options) is RefKind.ENUM
        intro = en.intro(st.target.name, st.target.ty)
        purpose = verb if verb and not reading.noun.endswith(" to " + verb) else None
        late = purpose is not None and purpose.split()[-1].lower() in PREPOSITIONS  # "to take a Crystal from"
        s = f"{who} {conjugate(who, 'choose')} {intro}" + (f" to {purpose}" if purpose and not late else "") + (
            "" if whole_enum else f" from {en.expr(st.options)}") + (f" to {purpose}" if late else "")
    elif named:
        whole_enum = isinstance(st.options, A.Name) and kind_of(st.options) is RefKind.ENUM
        s = f"{who} {conjugate(who, 'choose')} {article(tgt) if whole_enum else tgt}" + (
            "" if whole_enum else f" from {en.expr(st.options)}") + (f" to {verb}" if verb else "")
    elif verb:
        s = f"{who} {conjugate(who, 'choose')} {_options(en, st.options, st.target)} to {verb} ({tgt})"
    else:
        s = f"{who} {conjugate(who, 'choose')} {_options(en, st.options, st.target)} as {tgt}"
    if st.skip:
        s += f", or {quote(st.skip)}"
        if isinstance(st.target, A.Name):
            en.skips[st.target.name] = (who, st.skip)
    if st.prompt:
        s += f" ({quote(st.prompt)})"
    return Step(sentence(s))


def s_simultaneous(en: EnglishBase, st: A.Simultaneous) -> Step:
    pty = st.players.ty.element() if st.players.ty is not None else None
    noun = en.local(st.var, pty)
    s = f"at the same time, each of {en.expr(st.players)} secretly chooses {_options(en, st.options, st.target)}"
    s += f" as {en.expr(st.target)}".replace(noun + "'s ", "their ")
    if st.skip:
        s += f", or {quote(st.skip)} for none"
    if st.prompt:
        s += f" ({quote(st.prompt)})"
    return Step(sentence(s))


def s_act(en: EnglishBase, st: A.Act) -> Step:
    who = en.expr(st.by)
    names = [cap(humanize(a)) for a in st.actions]
    s = f"{who} {conjugate(who, 'take')} one action: {join_and(names, 'or')}"
    if st.prompt:
        s += f" ({quote(st.prompt)})"
    return Step(sentence(s))


def s_resolve(en: EnglishBase, st: A.Resolve) -> Step:
    return Step(sentence(f"resolve the Instant ability of {en.expr(st.card)}"))


def s_emit(en: EnglishBase, st: A.Emit) -> Step:
    args = [en.expr(a) for a in st.args]
    reading = en.phrase(en.decl_of(st.name), args)
    if reading is not None:
        return Step(f"(Event: {reading}.)")
    s = f"this counts as {quote(humanize(st.name))}"
    if args:
        s += " (" + ", ".join(args) + ")"
    return Step(sentence(s))


def s_require(en: EnglishBase, st: A.Require) -> Step:
    return Step(f"Only if {en.expr(st.cond)}; otherwise: {quote(st.message)}.")


def s_endgame(en: EnglishBase, st: A.EndGame) -> Step:
    return Step("The game ends.")


def n_block(en: EnglishBase, b: A.Block) -> list:
    return en.steps(b) or [Step("Nothing happens.")]


RENDER: dict = {
    A.Block: n_block, A.Let: s_let, A.Assign: s_assign, A.Transfer: s_transfer, A.ExprStmt: s_exprstmt,
    A.If: s_if, A.For: s_for, A.Repeat: s_repeat, A.While: s_while, A.Move: s_move, A.Shuffle: s_shuffle,
    A.Peek: s_peek, A.Reveal: s_reveal, A.Turn: s_turn, A.Swap: s_swap, A.Announce: s_announce,
    A.Log: s_log, A.Choose: s_choose, A.Simultaneous: s_simultaneous, A.Act: s_act, A.Resolve: s_resolve,
    A.Emit: s_emit, A.Require: s_require, A.EndGame: s_endgame,
}
