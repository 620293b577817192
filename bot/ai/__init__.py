"""AI opponents: seats the bot plays (`ai:N` on `/<game> new`) and the stand-in for an absent
player. Pure: it reads engines and states, never discord; the table runs it off the event loop."""
