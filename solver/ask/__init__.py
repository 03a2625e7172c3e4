"""The one door: a question read once into a Request (request.py), answered for its goal with
one fallback when the goal cannot be answered here (answer.py), from the tables of one cache
(tables.py).  The command line, the batch lines, the terminal coach and the web app all ask
here; nothing below them reads a card, a goal or a rules name of their input."""
