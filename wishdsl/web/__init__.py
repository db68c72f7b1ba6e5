"""`wishdsl serve`: web tables for people and AI players (see README, "Play in the browser").

app.py routes requests and WebSockets to server.py, which holds the tables (table.py) and their database
(store.py) and asks AI seats in worker processes (thinking.py); catalog.py lists the games on offer, uploads.py
takes house rules, pages.py renders the HTML pages from templates/, and static/ draws the table in the browser."""
