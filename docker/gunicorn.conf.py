"""Gunicorn settings for the web service (docker/start-web.sh runs ``gunicorn -c`` this file).

Requests Django never sees (a malformed request line or header, a request line or header past
the limits below) are refused by gunicorn itself; here they get the API's JSON error envelope,
``{"code", "message", "extra"}``, with ``Connection: close``, instead of gunicorn's HTML page.
A front proxy (nginx, Caddy) should refuse such requests before they reach gunicorn, and
answer an over-large body with 413 itself (docs/security.md, "Malformed HTTP").
"""

from __future__ import annotations

import json
import os

from gunicorn import util

bind = f"{os.environ.get('BIND_ADDRESS', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
threads = int(os.environ.get("WEB_THREADS", "2"))
timeout = 30
graceful_timeout = 30
keepalive = 5
accesslog = "-"
# The socket's address first; behind proxies (TRUSTED_PROXY_COUNT) the client's is in the
# X-Forwarded-For chain, which is logged too.
access_log_format = ('%(h)s xff="%({x-forwarded-for}i)s" %(t)s "%(r)s" %(s)s %(b)s '
                     '%(M)sms "%(a)s"')
# No request needs long lines or many headers: refuse early what no client sends.
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
# The proxy's X-Forwarded-Proto is read by Django (DJANGO_SECURE_PROXY_SSL_HEADER), not here.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

ERROR_CODES = {
    400: "malformed_request",
    403: "forbidden",
    413: "request_too_large",
    414: "request_line_too_long",
    431: "request_headers_too_large",
    500: "server_error",
}


def write_json_error(sock, status_int, reason, mesg):
    """Gunicorn's own error answer, as the API's JSON envelope."""
    body = json.dumps({
        "code": ERROR_CODES.get(status_int, "malformed_request"),
        "message": f"{reason}: {mesg}" if mesg else reason,
        "extra": {},
    }).encode("utf-8")
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


# Workers call util.write_error at the time of the error, so replacing it here (in the master,
# before the workers fork) answers every gunicorn-level error with the envelope.
util.write_error = write_json_error


def child_exit(server, worker):
    """A worker process ended (restarted or killed): its live gauges (``boardpost_live_waiters``)
    stop counting in ``/metrics``; its counters stay in the sum. prometheus-client's own call,
    so that the master never imports Django."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
