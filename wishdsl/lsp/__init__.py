"""`wishdsl lsp`: a language server for `.wish` files (issue 22), on pygls (the `lsp` extra).

    positions.py   the checker's spans (1-based, columns in characters) ↔ LSP positions (0-based, UTF-16)
    analysis.py    one document's text → parsed, linked and checked as the CLI does; its diagnostics
    index.py       the definitions of a game and its `extends` chain; what a position names; the outline
    hover.py       hover text: a definition, the cheat-sheet's English, a house rule's was / now
    complete.py    completion of names and keywords in context
    server.py      the pygls server: the protocol's handlers over the modules above

Everything but server.py is plain functions of a text and its path, testable without the protocol (and without
pygls installed).
"""
