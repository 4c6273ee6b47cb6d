"""What a game and a player implement, and the records they produce: the types every layer shares."""
