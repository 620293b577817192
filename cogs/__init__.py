"""One cog per game (slash commands and views; no rules here) and the table-wide commands."""
