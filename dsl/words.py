"""The language's reserved words, in one place: the parser reads them as keywords, syntax-error recovery and
part-by-part parsing split a file where a declaration word begins a line, the highlighters list them.

Keywords of statements and expressions are reserved everywhere; keywords of declarations only at the start of a
line, where declarations begin (so "card" or "play" may still name things elsewhere). `table` begins a
declaration too (`table {`) but is not reserved: a game may name a zone `table`.
"""
RESERVED = frozenset(
    "let if else for in repeat while move shuffle peek reveal turn swap announce log choose simultaneously act "
    "resolve emit require end transfer and or not true false none then".split())
RESERVED_AT_LINE_START = frozenset(
    "game enum card cards zone var param event function procedure action abilities when setup play scoring "
    "variant remove player invariant extends change heuristic".split())
OPENS_BEFORE_BRACE = frozenset({"table"})  # begin a declaration only when a `{` follows (not reserved)
