"""Finding games and player kinds through entry points, and parsing the player specs that name them."""
