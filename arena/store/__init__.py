"""SQLite storage over one file: schema, migrations and the writes that record an episode."""
