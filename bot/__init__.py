"""A Discord table for asynchronous board games."""
