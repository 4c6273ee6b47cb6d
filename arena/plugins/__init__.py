"""Finding games and player kinds through entry points (read by :mod:`arena.plugins.entry_points`, which
model providers use too), and parsing the player specs that name them."""
