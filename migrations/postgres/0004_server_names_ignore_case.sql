-- Names that differ only by case are one server (issue 11): a second spelling
-- can never be created, even by two publishes racing each other.
CREATE UNIQUE INDEX servers_name_lower ON servers (LOWER(name));
