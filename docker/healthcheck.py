"""Container health check: GET a health endpoint of the server in this container; exit 0 when
it answers 200, else 1 (printing the answer). Usage: healthcheck.py URL

The request carries a Host header Django accepts (the first of DJANGO_ALLOWED_HOSTS, a leading
dot or a wildcard standing for any name), so the check works whatever names the site serves.
"""

import os
import sys
import urllib.error
import urllib.request


def host_header() -> str:
    for host in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost").split(","):
        host = host.strip()
        if host == "*":
            return "localhost"
        if host:
            return host.lstrip(".") or "localhost"
    return "localhost"


def main(url: str) -> int:
    request = urllib.request.Request(url, headers={"Host": host_header()})
    try:
        with urllib.request.urlopen(request, timeout=8) as response:
            return 0 if response.status == 200 else 1
    except urllib.error.HTTPError as error:
        print(error.code, error.read()[:500].decode(errors="replace"))
    except OSError as error:
        print(error)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
