"""The headless ``arena`` command: parsing, listings, live output and tournaments."""
