from tests.databases import backend_url, database_url, postgres_server, postgres_session_url

__all__ = ["backend_url", "database_url", "postgres_server", "postgres_session_url"]
