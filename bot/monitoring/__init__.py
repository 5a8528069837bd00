"""What operators watch: the health and metrics endpoint (``HEALTH_PORT``) and its measurements.

:class:`~bot.monitoring.server.HealthServer` answers ``GET /healthz`` (is every shard of this
process connected, does the database answer) and ``GET /metrics`` (Prometheus text: the
Discord adapter's measurements from :mod:`bot.monitoring.metrics`, the service's from
:mod:`bot.services.metrics`, and the process's own).
"""
