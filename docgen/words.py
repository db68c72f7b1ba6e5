"""Words: the small text helpers every English renderer shares (names, verbs, plurals, lists)."""
from __future__ import annotations

import re

import attrs

from dsl import ast as A

class NoEnglish(Exception):
    """A construct has no English rendering (a missing entry of the dispatch table)."""


@attrs.define
class Step:
    """One step of a procedure in English, with the steps nested under it."""

    text: str
    children: list = attrs.Factory(list)

    def flat(self, depth: int = 0) -> str:
        lines = ["  " * depth + self.text]
        for c in self.children:
            lines.append(c.flat(depth + 1))
        return "\n".join(lines)


ABBREVIATIONS = {"vp": "VP", "vps": "VPs", "ok": "OK"}
IRREGULAR = {"have": "has", "do": "does", "go": "goes", "be": "is", "may": "may", "can": "can", "must": "must"}
COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
           ">=": "is at least"}
ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}
WORD_NUMBERS = {1: "once", 2: "twice"}


def humanize(name: str) -> str:
    """`vp_tokens` → "VP tokens", `WishCard` → "wish card"."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").strip()
    words = [ABBREVIATIONS.get(w.lower(), w.lower() if w[:1].isupper() and w[1:].islower() else w)
             for w in s.split()]
    return " ".join(words) or name


def title(name: str) -> str:
    h = humanize(name)
    return h[:1].upper() + h[1:]


def cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def sentence(s: str) -> str:
    s = cap(s.strip())
    return s if s.endswith((".", "!", "?", ":")) else s + "."


def possessive(np: str) -> str:
    if np == "you":
        return "your"
    if np == "it":
        return "its"
    if np in ("they", "them"):
        return "their"
    return np + ("'" if np.endswith("s") and not np.endswith("'s") and " " not in np[-3:] and np[-2:] != "ss"
                 else "'s")


def third_person(phrase: str) -> str:
    """"gain any" → "gains any"."""
    verb, sep, rest = phrase.partition(" ")
    if verb in IRREGULAR:
        v = IRREGULAR[verb]
    elif verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        v = verb + "es"
    elif verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        v = verb[:-1] + "ies"
    else:
        v = verb + "s"
    return v + sep + rest


def base_form(phrase: str) -> str:
    """"declares the end" → "declare the end" (the verb as it reads after "you")."""
    verb, sep, rest = phrase.partition(" ")
    back = {v: k for k, v in IRREGULAR.items() if k != v}
    if verb in back:
        v = back[verb]
    elif verb.endswith("ies") and len(verb) > 4:
        v = verb[:-3] + "y"
    elif verb.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        v = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        v = verb[:-1]
    else:
        v = verb
    return v + sep + rest


def negate(subject: str, phrase: str) -> str:
    """"hold Time Travel" → "does not hold Time Travel" ("do not" after "you"; "may not", "cannot", "is not")."""
    verb, sep, rest = phrase.partition(" ")
    if verb in ("may", "must", "will"):
        return f"{verb} not{sep}{rest}"
    if verb == "can":
        return f"cannot{sep}{rest}"
    if verb in ("be", "is", "are"):
        return f"{'are' if subject == 'you' else 'is'} not{sep}{rest}"
    return f"{'do' if subject == 'you' else 'does'} not {phrase}"


def conjugate(subject: str, phrase: str) -> str:
    return phrase if subject == "you" else third_person(phrase)


def join_and(items: list, word: str = "and") -> str:
    items = [i for i in items if i]
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def quote(s: str) -> str:
    return f"“{s}”"


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def plural(noun: str) -> str:
    if noun.endswith(("s", "sh", "ch", "x")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + "s"


def singular(noun: str) -> str:
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if noun.endswith("s") and not noun.endswith("ss"):
        return noun[:-1]
    return noun



def walk(node):
    """Every AST node under `node` (itself included), depth first, in field order."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        children = []
        for value in attrs.astuple(n, recurse=False) if attrs.has(type(n)) else ():
            items = value if isinstance(value, (list, tuple)) else (value,)
            for item in items:
                if isinstance(item, tuple):
                    children.extend(x for x in item if isinstance(x, A.Node))
                elif isinstance(item, A.Node):
                    children.append(item)
        todo.extend(reversed(children))


def occurrences(node, name: str) -> int:
    return sum(1 for n in walk(node) if isinstance(n, A.Name) and n.name == name)


ALIASES = {"to": "the destination", "from": "the origin", "at": "the place"}


def camel_words(name: str) -> str:
    """A CamelCase type name as words: `WishType` → "Wish type", `Area` → "Area"."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).split()
    return " ".join([words[0]] + [w.lower() if not w.isupper() else w for w in words[1:]]) if words else name


def kind_noun(name: str) -> str:
    """A card kind's name before "card(s)": `Wish` → "Wish", `WishCard` → "Wish", `CaravanCard` → "Caravan"."""
    if not re.search(r"[a-z][A-Z]", name):
        return name
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).split()
    if len(words) > 1 and words[-1].lower() == "card":
        words = words[:-1]
    return " ".join(words)
