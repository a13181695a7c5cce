"""The web server: games stored as records in a database, seats with secret tokens, live
updates, served by FastAPI (``warbench serve``)."""
