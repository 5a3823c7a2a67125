"""Settings shared by every environment; everything comes from the environment with safe local
defaults (SQLite and a broker-free Celery), so a fresh checkout runs with no set-up."""

from pathlib import Path

import environ
from csp.constants import NONCE
from kombu import Exchange, Queue
from whitenoise.compress import Compressor  # type: ignore[import-untyped]

from config.database import databases
from config.logging import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
if env.bool("DJANGO_READ_DOT_ENV_FILE", default=False):
    env.read_env(str(BASE_DIR / ".env"))

SECRET_KEY = env("DJANGO_SECRET_KEY", default="") or (
    "boardpost-local-development-key-not-for-production")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "accounts",
    "games",
    "games.web",
    "games.notify",
    "games.people",
    "games.tournaments",
    "games.benchmarks",
]

MIDDLEWARE = [
    # First: the request id (X-Request-ID) every later log line carries (config.request_id).
    "config.request_id.RequestIdMiddleware",
    # Request counts and times by route name and status (/metrics; config.metrics).
    "config.metrics.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # django-csp, the policy's text built once per process (config.policy).
    "config.policy.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The answer's language from Accept-Language (after the session, before CommonMiddleware,
    # as Django asks); a signed-in caller's own choice wins once DRF knows the caller
    # (config.i18n). Content-Language says which language each answer is in.
    "config.i18n.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # The session's user and messages: Django's, doing nothing for an API call authenticated by
    # "Authorization: Token" (config.token_calls), which reads neither.
    "config.token_calls.AuthenticationMiddleware",
    "config.token_calls.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A signed-in caller's write pins their reads to the primary for a while (config.replica).
    "config.replica.ReplicaPinMiddleware",
    # A database outage escaping any view is answered 503, not 500.
    "config.exceptions.DatabaseUnavailableMiddleware",
    # Last: turns a sign-in refused for too many failures into the coded 429 answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_SQLITE_URL = f"sqlite:///{VAR_DIR / 'boardpost.sqlite3'}"
# PostgreSQL connections come from a pool of at most DB_POOL_MAX_SIZE per process (see
# config.database); DB_POOL=false turns it off. When the database cannot be reached, requests
# are answered 503 with Retry-After: DB_RETRY_AFTER_SECONDS.
# DATABASE_REPLICA_URL adds a streaming read replica for lists, leaderboards, histories and
# player pages (config.replica); DATABASE_POOLER=pgbouncer fits every entry to PgBouncer in
# transaction mode.
DATABASES = databases(env, _SQLITE_URL, pool=env.bool("DB_POOL", default=True))
DATABASE_ROUTERS = ["config.replica.ReplicaRouter"]
# Read-your-writes: a caller's reads stay on the primary this long after each of their writes.
REPLICA_PIN_SECONDS = env.float("REPLICA_PIN_SECONDS", default=10.0)
# A replica further behind than this serves no reads until it catches up; asked this often.
REPLICA_MAX_LAG_SECONDS = env.float("REPLICA_MAX_LAG_SECONDS", default=5.0)
REPLICA_CHECK_SECONDS = env.float("REPLICA_CHECK_SECONDS", default=1.0)
DB_RETRY_AFTER_SECONDS = env.int("DB_RETRY_AFTER_SECONDS", default=3)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "accounts.passwords.NotBlankValidator"},
]

# English, French, Brazilian Portuguese and Korean; the catalogues are locale/<lang>/LC_MESSAGES
# (docs/i18n.md says how to add a language).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("pt-br", "Português (Brasil)"),
    ("ko", "한국어"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Hashed names (cached for a year), gzip and Brotli copies, JS module imports rewritten to the
# hashed names: collectstatic builds them (make run does it on start). See config/staticfiles.py.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.staticfiles.ClientStaticStorage"},
}
# Only the hashed copies are kept (and compressed): every page and module names those, and the
# plain ones would double the work and the disk of collectstatic (the API docs' bundles and
# source maps are most of it).
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
# Source maps are not compressed: only a developer's tools fetch them, and Brotli at its best
# level spends most of collectstatic's time on the API docs' 6 MB of them.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

# Requests larger than this are refused before parsing (a move is a few hundred bytes).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DJANGO_DATA_UPLOAD_MAX_MEMORY_SIZE", default=64 * 1024)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.CachedTokenAuthentication",
        "config.i18n.UserLanguageSessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["config.api.ORJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["config.api.BoundedJSONParser"],
    # DRF's negotiation, its choice per Accept header remembered (config.negotiation).
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.negotiation.RememberedContentNegotiation",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.exceptions.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.AnonRateThrottle",
        "config.throttling.PlayerRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env("THROTTLE_ANON", default="60/min"),
        "user": env("THROTTLE_USER", default="600/min"),
        # Sign-ups per client address: generous, as a school or a café shares one address;
        # per address and chosen name: small (accounts.apis, config.throttling).
        "register": env("THROTTLE_REGISTER", default="300/hour"),
        "register_name": env("THROTTLE_REGISTER_NAME", default="10/hour"),
        # Guest accounts made per client address, and each guest's request budget.
        "guest": env("THROTTLE_GUEST", default="300/hour"),
        "guest_user": env("THROTTLE_GUEST_USER", default="300/min"),
        "longpoll": env("THROTTLE_LONGPOLL", default="3000/min"),
        # Password reset mails asked for per client address, and per address asked about
        # (whoever asks: a mailbox is not flooded); reset links tried per client address.
        "password_forgot": env("THROTTLE_PASSWORD_FORGOT", default="30/hour"),
        "password_forgot_email": env("THROTTLE_PASSWORD_FORGOT_EMAIL", default="3/hour"),
        "password_reset": env("THROTTLE_PASSWORD_RESET", default="30/hour"),
        # Data exports asked for per player.
        "export": env("THROTTLE_EXPORT", default="3/day"),
        # Chat lines said, and reports filed, per player (games.people).
        "chat": env("THROTTLE_CHAT", default="10/min"),
        "report": env("THROTTLE_REPORT", default="20/day"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

# Seconds a process remembers an API token's user (accounts.authentication); 0 turns it off.
TOKEN_CACHE_SECONDS = env.int("TOKEN_CACHE_SECONDS", default=5)
# A new API token expires after this many days (0: never); a client may ask for less.
API_TOKEN_TTL_DAYS = env.int("API_TOKEN_TTL_DAYS", default=365)
# A person holds at most this many tokens; creating one more drops the oldest.
API_TOKENS_PER_USER = env.int("API_TOKENS_PER_USER", default=50)

# The client address. Requests reach Django either straight from clients (0, the default: the
# socket's address is the client's, and X-Forwarded-For is ignored) or through this many
# trusted reverse proxies, each appending to X-Forwarded-For; the address the last of them saw
# is the client's. Throttles (DRF's NUM_PROXIES), sign-in lockouts and their logs all count by
# that one address (accounts.clientip.client_ip). Never set it higher than the real number of
# proxies: a client could then pick its own address by sending X-Forwarded-For.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXY_COUNT

# Sign-in protection (django-axes), for the API token endpoint and the admin alike: after
# SIGNIN_FAILURE_LIMIT wrong passwords for one account (from any address), or from one address
# (for any accounts), sign-ins are refused with 429 "too_many_attempts" for
# SIGNIN_COOLOFF_MINUTES.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # A disabled account, or one waiting for its deletion, opens again by signing in.
    "accounts.backends.ReopeningModelBackend",
]
AXES_FAILURE_LIMIT = env.int("SIGNIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = env.float("SIGNIN_COOLOFF_MINUTES", default=15.0) / 60
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_DISABLE_ACCESS_LOG = True
AXES_CLIENT_IP_CALLABLE = "accounts.clientip.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.signin.lockout_response"
AXES_SENSITIVE_PARAMETERS = ["password"]

# A person may keep at most this many open or running matches with a bot seat that they
# created (0: no limit); matches of bots against bots only are never rated.
MAX_ACTIVE_BOT_MATCHES = env.int("MAX_ACTIVE_BOT_MATCHES", default=10)

# Guests (POST /api/auth/guest): a guest's token lasts GUEST_TOKEN_DAYS; a guest keeps at
# most GUEST_MAX_ACTIVE_MATCHES open or running matches (bots only, never rated); a guest idle
# for GUEST_IDLE_DAYS is deleted with its matches by the periodic guest clean-up.
GUEST_TOKEN_DAYS = env.int("GUEST_TOKEN_DAYS", default=30)
GUEST_MAX_ACTIVE_MATCHES = env.int("GUEST_MAX_ACTIVE_MATCHES", default=3)
GUEST_IDLE_DAYS = env.int("GUEST_IDLE_DAYS", default=14)

# Closing an account (accounts.closing, games.lifecycle): a deletion is done this many days
# after it was asked for, unless the player signs in first. A data export's archive can be
# downloaded for EXPORT_KEEP_DAYS, then it is deleted. A password reset link works for
# PASSWORD_RESET_TIMEOUT seconds (Django's token generator), once. The account sweep does the
# deletions that fell due, builds the exports and sends the reset mails whose task was lost,
# and deletes expired archives.
ACCOUNT_DELETION_GRACE_DAYS = env.int("ACCOUNT_DELETION_GRACE_DAYS", default=30)
EXPORT_KEEP_DAYS = env.int("EXPORT_KEEP_DAYS", default=7)
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=86400)
ACCOUNT_WORK_GRACE_SECONDS = env.float("ACCOUNT_WORK_GRACE_SECONDS", default=60.0)

# The admin site (/admin/), behind the same sign-in protection; off when false.
ADMIN_ENABLED = env.bool("DJANGO_ADMIN_ENABLED", default=True)

# Content-Security-Policy (django-csp): scripts and styles only from this site; the web
# client's one inline element, its import map, carries the per-response nonce.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:", "blob:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Boardpost API",
    "DESCRIPTION": "Turn-based matches of Nibble, Nimble and Nimalia, with bots and ratings.",
    "VERSION": "2.12.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Choice sets whose field name another component's also has: each keeps a name of its own.
    "ENUM_NAME_OVERRIDES": {"ChatRoomEnum": ["players", "spectators"],
                            "ReportStatusEnum": ["open", "dismissed", "acted"],
                            "StatusEnum": ["open", "active", "finished", "aborted"],
                            "TournamentStatusEnum": ["entry", "running", "finished",
                                                     "cancelled"],
                            "DataExportStatusEnum": "accounts.models.DataExport.Status"},
    # Each error response lists its codes; the default hook (enum components) still runs.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "config.api.error_codes_hook",
                             "games.api.schemas.game_types_hook"],
    # Enums that share a field name with another's get names of their own.
}

# Throttle counters live in the cache: set CACHE_URL (e.g. redis://...) when several processes
# serve the API so they share one budget per caller.
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}
# Redis on the request path (this cache, the long-poll wake-ups of games.live.hub) must connect
# and answer within these seconds, or it counts as away: the process then leaves it alone for
# REDIS_RETRY_SECONDS (config.outages), the cache answering from process memory meanwhile
# (config.cache), so an outage, even a hanging Redis, never fails or stalls a request.
REDIS_CONNECT_TIMEOUT = env.float("REDIS_CONNECT_TIMEOUT", default=0.25)
REDIS_SOCKET_TIMEOUT = env.float("REDIS_SOCKET_TIMEOUT", default=0.25)
REDIS_RETRY_SECONDS = env.float("REDIS_RETRY_SECONDS", default=5.0)
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "config.cache.FallbackRedisCache"
    CACHES["default"]["OPTIONS"] = {"socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                                    "socket_timeout": REDIS_SOCKET_TIMEOUT,
                                    **CACHES["default"].get("OPTIONS", {})}

# Celery. With no broker configured the embedded default is a filesystem broker under var/,
# so `make run` needs neither Redis nor RabbitMQ and still runs real worker processes.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS: dict = {}
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # A task whose worker died unacknowledged is handed out again after this many seconds.
        # It must exceed the longest a delivered message stays unacknowledged in a live worker:
        # the hard time limit (25 s) plus a countdown (a real-time bot's next action, at most
        # 3 s) plus a wait behind a busy pool. Then a killed worker's tasks run again within
        # about a minute (plus the restore interval); the due-work sweep usually gets there
        # first (DUE_WORK_GRACE_SECONDS + DUE_WORK_SWEEP_SECONDS).
        "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=60),
        "unacked_restore_interval": env.int("CELERY_UNACKED_RESTORE_INTERVAL", default=5),
        "unacked_restore_throttle": env.int("CELERY_UNACKED_RESTORE_THROTTLE", default=1),
        # A broker that is down or unreachable must fail a publish quickly: the request that
        # committed a move is waiting for it (see games.services.scheduling). Connecting gives
        # up after 1 s; a command on a connection that went silent after 2 s (above the 1 s
        # a worker's BRPOP waits for the broker's answer). Measured: a refused connection
        # fails a publish in 0.2-0.3 s, a broker that accepts and never answers in 2 s.
        "socket_connect_timeout": env.float("CELERY_BROKER_CONNECT_TIMEOUT", default=1.0),
        "socket_timeout": env.float("CELERY_BROKER_SOCKET_TIMEOUT", default=2.0),
    }
elif CELERY_BROKER_URL.startswith("filesystem://"):
    _queue_dir = VAR_DIR / "celery"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir / "queue"),
        "data_folder_out": str(_queue_dir / "queue"),
        "processed_folder": str(_queue_dir / "processed"),
        "store_processed": False,
        # The workers' broadcast exchanges (remote control), else a control/ in the cwd.
        "control_folder": str(_queue_dir / "control"),
    }
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECT_TIMEOUT", default=1.0)
# Publishing: one retry, 0.2 s later, then give up (the caller logs it; the sweep catches up).
CELERY_TASK_PUBLISH_RETRY = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0.2,
                                    "interval_step": 0.2, "interval_max": 0.2}
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", default="celery")
# The moves of the bots that think for seconds (level 4) go to a queue of their own, consumed
# by a worker of its own (scripts/run_local.py, docker/compose.yaml), so they never delay a
# level-1 answer or a round's scoring on the default queue.
BOTS_DEEP_QUEUE = env("BOTS_DEEP_QUEUE", default="bots-deep")
# Every other task goes to the queue of its kind (games.services.scheduling.route_task): bot
# moves, steps (a Nimalia round's scoring and every other automatic step), ratings,
# notifications and sweeps, each named CELERY_QUEUE_PREFIX and its kind, each with workers of
# its own in docker/compose.yaml. A worker started without a list of queues (make run's, a small
# deployment's) consumes all of them and the default queue; the deep bots' queue is always
# named (-Q).
CELERY_QUEUE_PREFIX = env("CELERY_QUEUE_PREFIX", default="")
CELERY_TASK_ROUTES = ("games.services.scheduling.route_task",)
CELERY_TASK_QUEUES = [
    Queue(name, Exchange(name), routing_key=name)
    for name in (CELERY_TASK_DEFAULT_QUEUE,
                 *(f"{CELERY_QUEUE_PREFIX}{kind}"
                   for kind in ("bots", "steps", "ratings", "notifications", "sweeps")))
]
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The longest task is a level-3 bot's move (it thinks for up to 2 s) or a sweep's batch; none
# comes near these. Soft: the task gets an exception and its transaction rolls back; hard: the
# pool process is killed. Both stay well below the visibility timeout (60 s).
CELERY_TASK_SOFT_TIME_LIMIT = 20
CELERY_TASK_TIME_LIMIT = 25
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE: dict = {
    "sweep-deadlines": {
        "task": "games.deadlines_sweep",
        "schedule": env.float("DEADLINE_SWEEP_SECONDS", default=30.0),
    },
    "sweep-due-work": {
        "task": "games.due_work_sweep",
        "schedule": env.float("DUE_WORK_SWEEP_SECONDS", default=15.0),
    },
    "clean-up-idle-guests": {
        "task": "games.guests_idle_delete",
        "schedule": env.float("GUEST_CLEANUP_SECONDS", default=3600.0),
    },
    "sweep-accounts": {
        "task": "games.account_work_sweep",
        "schedule": env.float("ACCOUNT_SWEEP_SECONDS", default=60.0),
    },
}
# Work a match waits on (a bot's turn or next action, the engine's automatic step, the rating)
# is queued again when it has not happened this long after it became due. Far above what a
# healthy queue takes (a bot thinks up to 2 s, a real-time bot reacts within 3 s), so a sweep
# rarely duplicates a live task (a duplicate is harmless anyway: tasks check the version or
# ticket they carry). A lost task is so made good within grace + sweep interval (45 s).
DUE_WORK_GRACE_SECONDS = env.float("DUE_WORK_GRACE_SECONDS", default=30.0)

# Notifications (games.notify): Web Push with VAPID keys (base64url: the raw 32-byte private
# key and the 65-byte uncompressed public key; `make run` generates a pair under var/), and
# mail through Django's email framework: EMAIL_URL (smtp://user:password@host:587, or
# submission://... for STARTTLS, smtps://... for TLS; consolemail:// prints mails) or the
# EMAIL_* settings one by one. SITE_URL is where the links in mails point.
VAPID_PUBLIC_KEY = env("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env("VAPID_SUBJECT", default="mailto:admin@localhost")
PUSH_SUBSCRIPTIONS_PER_USER = env.int("PUSH_SUBSCRIPTIONS_PER_USER", default=20)
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Boardpost <noreply@localhost>")
SERVER_EMAIL = env("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
if env("EMAIL_URL", default=""):
    vars().update(env.email_url("EMAIL_URL"))
else:
    EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend")
    EMAIL_HOST = env("EMAIL_HOST", default="localhost")
    EMAIL_PORT = env.int("EMAIL_PORT", default=25)
    EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
    EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = env.float("EMAIL_TIMEOUT", default=10.0)
# The digests go out at each person's chosen hour: beat looks for those due this often.
CELERY_BEAT_SCHEDULE["notify-digest"] = {
    "task": "games.notify_digest_send",
    "schedule": env.float("NOTIFY_DIGEST_SECONDS", default=600.0),
}
# Feed entries whose notification task never ran (the broker was down at commit) are delivered
# by a sweep: those older than the grace period and younger than the lookback.
CELERY_BEAT_SCHEDULE["notify-sweep"] = {
    "task": "games.notify_sweep",
    "schedule": env.float("NOTIFY_SWEEP_SECONDS", default=30.0),
}
NOTIFY_SWEEP_GRACE_SECONDS = env.float("NOTIFY_SWEEP_GRACE_SECONDS", default=60.0)
NOTIFY_SWEEP_LOOKBACK_SECONDS = env.float("NOTIFY_SWEEP_LOOKBACK_SECONDS", default=86400.0)
NOTIFY_SWEEP_STUCK_SECONDS = env.float("NOTIFY_SWEEP_STUCK_SECONDS", default=900.0)

# Vacation (games.services.vacations): the bank a new account starts with, what each day off
# vacation adds to it and the most it holds, all checked by games.clocks.vacation.policy. The
# vacation sweep ends vacations that used up their bank and sends the "one day left" warnings.
VACATION_STARTING_DAYS = env.float("VACATION_STARTING_DAYS", default=20.0)
VACATION_ACCRUAL_HOURS_PER_DAY = env.float("VACATION_ACCRUAL_HOURS_PER_DAY", default=3.0)
VACATION_CAP_DAYS = env.float("VACATION_CAP_DAYS", default=30.0)
# A seat whose turn runs when its player's vacation ends gets at least this long to move (never
# more than its match's turn or bank maximum; games.clocks.clock.returning_minimum).
VACATION_RETURN_MINIMUM_SECONDS = env.int("VACATION_RETURN_MINIMUM_SECONDS", default=86400)
# Tournaments: the sweep that moves them on (starts, rounds, challenge expiry, results not yet
# acted on; games.tournaments.services.due), and how long before the start entrants are told.
CELERY_BEAT_SCHEDULE["sweep-tournaments"] = {
    "task": "games.tournaments_sweep",
    "schedule": env.float("TOURNAMENT_SWEEP_SECONDS", default=30.0),
}
TOURNAMENT_STARTS_SOON_SECONDS = env.int("TOURNAMENT_STARTS_SOON_SECONDS", default=3600)
CELERY_BEAT_SCHEDULE["sweep-vacations"] = {
    "task": "games.vacations_sweep",
    "schedule": env.float("VACATION_SWEEP_SECONDS", default=60.0),
}
# Match chat and reports (games.people, docs/social.md): a line's length; a line the same as
# the author's previous one in the match within this many seconds is dropped; links need an
# account this many days old; a seat is told of chat once per match per quiet period; lines
# are kept this many days after they were said, answered reports this many days after their
# answer.
CHAT_LINE_MAX_CHARS = env.int("CHAT_LINE_MAX_CHARS", default=200)
CHAT_DUPLICATE_SECONDS = env.int("CHAT_DUPLICATE_SECONDS", default=600)
CHAT_LINK_MIN_ACCOUNT_DAYS = env.int("CHAT_LINK_MIN_ACCOUNT_DAYS", default=7)
CHAT_NOTICE_QUIET_SECONDS = env.int("CHAT_NOTICE_QUIET_SECONDS", default=900)
CHAT_KEEP_DAYS = env.int("CHAT_KEEP_DAYS", default=365)
REPORTS_KEEP_DAYS = env.int("REPORTS_KEEP_DAYS", default=730)
CELERY_BEAT_SCHEDULE["people-sweep"] = {
    "task": "games.people_sweep",
    "schedule": env.float("PEOPLE_SWEEP_SECONDS", default=3600.0),
}
# Real-time matches (Nimble races) end as a stalemate after this long without any action.
REALTIME_IDLE_SECONDS = env.int("REALTIME_IDLE_SECONDS", default=90)

# Long-poll wake-ups travel through Redis pub/sub when a Redis URL is known; otherwise waiting
# clients poll the database every EVENTS_POLL_SECONDS.
EVENTS_REDIS_URL = env("EVENTS_REDIS_URL", default="") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else "")
EVENTS_POLL_SECONDS = env.float("EVENTS_POLL_SECONDS", default=0.5)
LONG_POLL_MAX_SECONDS = 60
# Threads (and so database connections) each ASGI process uses for long-poll reads.
LONG_POLL_DB_THREADS = env.int("LONG_POLL_DB_THREADS", default=4)
# Server-Sent Events streams (games.live.streams): a comment line after this many silent
# seconds keeps proxies from closing the connection; a stream ends after EVENTS_STREAM_SECONDS
# and the client reconnects where it was (Last-Event-ID).
EVENTS_HEARTBEAT_SECONDS = env.float("EVENTS_HEARTBEAT_SECONDS", default=15.0)
EVENTS_STREAM_SECONDS = env.float("EVENTS_STREAM_SECONDS", default=3600.0)

# Log lines (config.logging): one JSON object per line (LOG_FORMAT=json, the default; local
# development says plain), each with the request id, user id and match id when known, secrets
# redacted, SQL statements never logged.
LOGGING = logging_config(env("LOG_FORMAT", default="json"), env("DJANGO_LOG_LEVEL", default="INFO"))

# Metrics (/metrics, Prometheus text format; config.metrics, games.metrics): answered to a
# scraper that sends "Authorization: Bearer <METRICS_TOKEN>", or that connects from one of
# METRICS_ALLOWED_ADDRESSES (the socket's address, never X-Forwarded-For; addresses or
# networks). Neither set: /metrics answers 404. Several processes (gunicorn workers, Celery's
# prefork pool) add up their metrics through PROMETHEUS_MULTIPROC_DIR (docs/operations.md).
METRICS_TOKEN = env("METRICS_TOKEN", default="")
METRICS_ALLOWED_ADDRESSES = env.list("METRICS_ALLOWED_ADDRESSES", default=["127.0.0.1", "::1"])
# What is read at scrape time (one cheap query or Redis call each), kept this many seconds.
METRICS_CACHE_SECONDS = env.float("METRICS_CACHE_SECONDS", default=10.0)
METRICS_COLLECTORS = [
    "games.metrics.ActiveMatchesCollector",
    "games.metrics.DueWorkCollector",
    "games.metrics.QueueDepthCollector",
]
# A Celery worker serves its own /metrics on this port when set (0: off); see docs/operations.md.
CELERY_METRICS_PORT = env.int("CELERY_METRICS_PORT", default=0)
