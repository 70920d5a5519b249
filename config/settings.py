"""Settings, all from the environment, with defaults that need nothing installed (see the
table of settings in docs/operations.md, "Settings")."""

import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url

from config.arena import *  # noqa: F403 - the bot arena's bounds, read there
from config.env import env_bool, env_int, env_list, env_str, proxy_ssl_header, secret_key_from_file
from config.fast_path import *  # noqa: F403 - the fast path's other switches, read there
from config.languages import *  # noqa: F403 - the languages spoken and their catalogues
from config.lti import *  # noqa: F403 - the LTI tool's settings, read there

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
# -- secret key and HTTPS (see docs/operations.md, "Settings") -------------------------------
# Without SECRET_KEY, a random key is made once and kept in SECRET_KEY_FILE (git-ignored),
# so signatures survive restarts and no public key ever signs anything.
SECRET_KEY_FILE = Path(env_str("SECRET_KEY_FILE", str(BASE_DIR / ".secret-key")))
SECRET_KEY = env_str("SECRET_KEY", "") or secret_key_from_file(SECRET_KEY_FILE)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
# The health probe of a container asks over plain HTTP from inside: never redirected.
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health/$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", False)
SECURE_PROXY_SSL_HEADER = proxy_ssl_header("SECURE_PROXY_SSL_HEADER")
# ---------------------------------------------------------------------------------------------
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "corsheaders",
    "django_filters",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "lti_tool",  # before games: games.admin replaces its registration admin
    "games",
    "axes",
]

# Work outside requests (turn clocks, assignment closings, webhook deliveries) is done by
# `manage.py run_worker` processes, which find what is due on its own rows (SELECT ... FOR
# UPDATE SKIP LOCKED on PostgreSQL: each piece done by one worker of any host; games/work/).

# Webhooks to loopback, private or link-local addresses are refused (at registration and at
# every delivery) unless this is true: for development and tests only.
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", False)

# How long a worker holds a webhook delivery it took for an attempt (an attempt ends within
# 5 s): a worker that dies mid-attempt leaves the delivery to be taken again after this.
WORK_LEASE_SECONDS = env_int("WORK_LEASE_SECONDS", 30, minimum=6)

# GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, it is not found.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
# Where each process of the instance keeps its figures for GET /metrics (prometheus_client's
# own variable, read when its metrics are made: the folder must exist by then).
if env_str("PROMETHEUS_MULTIPROC_DIR", ""):
    Path(env_str("PROMETHEUS_MULTIPROC_DIR", "")).mkdir(parents=True, exist_ok=True)

MIDDLEWARE = [
    # Outermost: every request counted and timed as answered (GET /metrics).
    "games.http.middleware.request_metrics.RequestMetricsMiddleware",
    "games.http.middleware.language.LanguageMiddleware",  # Accept-Language: each answer's
    # It turns the bodiless refusals of everything below into problem documents.
    "games.http.middleware.problem_middleware.ProblemMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    # Sessions, users and messages serve the admin: skipped under /api/
    # (games.http.middleware.admin_sessions).
    "games.http.middleware.admin_sessions.AdminSessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "games.http.middleware.admin_sessions.AdminAuthenticationMiddleware",
    "games.http.middleware.admin_sessions.AdminMessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # API keys and the stop for repeated wrong credentials (games.http.api_keys).
    "games.http.api_keys.ApiKeyMiddleware",
    # Who asks for a missing strategy table: a client may queue a few builds an hour.
    "games.http.middleware.table_askers.TableAskerMiddleware",
    # Admin login attempts (django-axes): last, as it asks.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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

# Connections are never kept by Django itself (CONN_MAX_AGE 0): on PostgreSQL they come
# from a pool (see "Database connections" below); SQLite opens its file per request.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"), conn_max_age=0
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Moves take the write lock when their transaction begins (IMMEDIATE) and wait for it
    # (timeout), so concurrent moves queue instead of failing; WAL lets reads go on meanwhile.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that does not answer (a lost network, a server that hangs) fails the request
    # with 503 after this many seconds instead of holding it forever (unless the URL sets it).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 5, minimum=1)
    )

# -- Database connections and server threads -------------------------------------------
# Threads per worker process that run the requests (config/asgi.py) and the event streams'
# reads of the log: the only threads of a worker that use the database. A worker serves at
# most this many requests at once, each with one pooled connection.
SERVER_THREADS = env_int("SERVER_THREADS", 8, minimum=1)
# Moves, creations and reads of a game run on the worker's event loop's own thread instead
# (games.serving.quick): no hand-over to a thread, no wait for the interpreter lock.
SERVER_QUICK_ON_LOOP = env_bool("SERVER_QUICK_ON_LOOP", True)
# The bounds of a request's head (its request line and header fields), enforced by the
# service's HTTP protocol (games.serving.protocol) for uvicorn and gunicorn alike: neither
# bounds them for httptools' parser. A head with more fields than this, or more bytes, is
# refused with 431 and the connection closed; one not received whole within this many
# seconds of its first byte (of the connection's opening, for its first request) with 408.
SERVER_HEAD_MAX_FIELDS = env_int("SERVER_HEAD_MAX_FIELDS", 100, minimum=1)
SERVER_HEAD_MAX_BYTES = env_int("SERVER_HEAD_MAX_BYTES", 16384, minimum=1024)
SERVER_HEAD_TIMEOUT = env_int("SERVER_HEAD_TIMEOUT", 15, minimum=1)

# On PostgreSQL, a pool of connections per worker process.
# Each request borrows a connection from psycopg's pool and gives it back when it ends, so
# no request pays for a new connection (about 2-5 ms with authentication). Before lending one
# the pool checks, without a round trip, that the server has not closed it
# (games/db/pool_check.py), so the service recovers by itself after the server restarts.
# A worker process keeps DATABASE_POOL_MIN_SIZE of them open and uses at most SERVER_THREADS
# at once (plus the one that listens for the event streams), whatever the load and however
# many streams are open; the pool may hold up to DATABASE_POOL_MAX_SIZE. A request waits
# DATABASE_POOL_TIMEOUT seconds for one before it fails as the database being unavailable.
# (A pool kept full, min = SERVER_THREADS, took 11 s instead of 2 s to serve again after the
# database had hung: each of its connections lost is retried before a request gets one.)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False  # the pool's own check, below
    DATABASE_POOL_MIN_SIZE = env_int("DATABASE_POOL_MIN_SIZE", 2, minimum=0)
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": DATABASE_POOL_MIN_SIZE,
        "max_size": env_int("DATABASE_POOL_MAX_SIZE", 16, minimum=max(DATABASE_POOL_MIN_SIZE, 1)),
        "timeout": env_int("DATABASE_POOL_TIMEOUT", 5, minimum=1),
        "max_idle": 300,  # seconds an idle connection above min_size is kept
        # A connection lost with the database is retried after 1, 2, 4 s, then given up, so
        # that the next request asks for a fresh one at once: the service is back within a
        # few seconds of the database (psycopg's default keeps backing off for 5 minutes).
        "reconnect_timeout": 5,
    }
    # A game's statements (games/db/pipeline.py) are prepared once per connection, so that
    # PostgreSQL does not parse and plan them again on every move. Django leaves preparing
    # off, for poolers in front of the database that cannot keep a session's prepared
    # statements (DATABASE_PREPARE=false, for such a pooler); its own queries bind on the
    # client and are never prepared.
    if env_bool("DATABASE_PREPARE", True):
        DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", 5)
    # Django's backend, giving the pool the check above (games/db/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "games.db.postgresql"

# -- end of database connections and server threads ------------------------------------------
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
# WhiteNoise hands its files over as synchronous iterators; Django under ASGI reads each
# whole (fine for the docs' assets) and says so on each first use.
warnings.filterwarnings(
    "ignore",
    "StreamingHttpResponse must consume synchronous iterators",
    module="django.core.handlers.asgi",
)

CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", "")
CORS_ALLOW_ALL_ORIGINS = env_bool("CORS_ALLOW_ALL_ORIGINS", False)
CORS_URLS_REGEX = r"^/api/.*$"
CORS_EXPOSE_HEADERS = ["ETag", "Location", "Retry-After", "Idempotent-Replayed"]
CORS_ALLOW_HEADERS = [
    "accept",
    "authorization",
    "content-type",
    "if-match",
    "if-none-match",
    "idempotency-key",
    "last-event-id",
    "x-api-key",
]

# -- rate limits and the shared cache (games.http.limits) ----------------------------------------
# Requests one client (an API key, else an address) may make, as one or more windows:
# "<count>/<second|minute|hour|day>[,...]"; empty for no limit. They guard what is costly;
# a move of a seat holding its token is cheap and is not limited unless THROTTLE_MOVES is set.
THROTTLE_RATES = {
    "create": env_str("THROTTLE_CREATE", "600/minute,6000/hour"),
    "advice": env_str("THROTTLE_ADVICE", "600/minute,10000/hour"),
    "classrooms": env_str("THROTTLE_CLASSROOMS", "60/minute,600/hour"),
    "failures": env_str("THROTTLE_FAILURES", "30/minute,300/hour"),
    "moves": env_str("THROTTLE_MOVES", ""),
    # A game's record and the check of one (a whole log each; a check replays the game).
    "records": env_str("THROTTLE_RECORDS", "30/minute"),
    # The computer seats' moves played within requests, weighted by their cost (a unit is
    # about 0.1 ms of the web process's core, and as much again of PostgreSQL's): a whole
    # game of 8 optimal Maxi Yatzy computers is about 4,400. docs/operations.md, "Limits",
    # has the figures.
    "computers": env_str("THROTTLE_COMPUTERS", "20000/minute,1200000/hour"),
}
# Requests carrying an API key count per key, and also per address against this many times
# the limits above: keys (and classrooms, which anyone may open) do not multiply what one
# address may do.
THROTTLE_KEYED_ADDRESS_FACTOR = env_int("THROTTLE_KEYED_ADDRESS_FACTOR", 10, minimum=1)
# The same for the computers' budget, whose units are a core's work: a lower factor.
THROTTLE_COMPUTERS_KEYED_FACTOR = env_int("THROTTLE_COMPUTERS_KEYED_FACTOR", 3, minimum=1)
# What each key of a new classroom may do per hour. A teacher may lower a classroom's quota;
# only an operator raises it (in the admin).
CLASSROOM_QUOTA = {
    "games_per_hour": env_int("QUOTA_GAMES_PER_HOUR", 6000, minimum=1),
    "advice_per_hour": env_int("QUOTA_ADVICE_PER_HOUR", 10000, minimum=1),
    "computer_moves_per_hour": env_int("QUOTA_COMPUTER_MOVES_PER_HOUR", 600000, minimum=1),
}
# Behind proxies, how many append to X-Forwarded-For; 0: the header is ignored.
NUM_PROXIES = env_int("NUM_PROXIES", 0, minimum=0)
# Counters shared by every worker and host: Redis when REDIS_URL is set, else a table of
# the database (created by migrate), which holds across the processes of one machine.
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "games.db.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "dice"),
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "games.db.cache.DatabaseCache",
            "LOCATION": "dice_cache",
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "dice"),
            # Never cull live counters: expired rows are dropped as they are met.
            "OPTIONS": {"MAX_ENTRIES": 10_000_000},
        }
    }
LIMITS_CACHE = "default"

# Admin login attempts (django-axes), counted in the database: shared by every worker.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("ADMIN_LOGIN_ATTEMPTS", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("ADMIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_CLIENT_IP_CALLABLE = "games.http.limits.admin_login_address"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# ---------------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "NUM_PROXIES": NUM_PROXIES,
    # DRF's JSON, each body bounded as it is read (games.http.json_bodies).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["games.http.json_bodies.BoundedJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "games.http.problems.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "games.api.games.filters.GamePagination",
    "PAGE_SIZE": 20,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Dice games API",
    "DESCRIPTION": (
        "Dice games over HTTP: Yahtzee (with its Joker and bonus house rules), Yatzy, Forced "
        "Yatzy, Maxi Yatzy and Ten Thousand, alone, on one device or across devices, with "
        "computer seats, hints and a live event stream. Box games roll, hold, score and "
        "scratch; Ten Thousand rolls, sets dice aside, banks and passes. "
        "Errors are `application/problem+json` with stable `code` strings. "
        "Moves need the `Authorization: Bearer <token>` of the seat that moves; "
        "tokens are returned once, when the seat is created. "
        "The service's own web client, built on this API alone, is at `/play/`. "
        "A request may also carry `X-API-Key`, a classroom key (see the classrooms paths): "
        "it says who is calling, ties the games a student creates to the student, and makes "
        "the rate limits count per key instead of per address."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVERS": [{"url": "/", "description": "This service"}],
    "ENUM_NAME_OVERRIDES": {
        "AnalysisMethodEnum": "games.api.schema.enums.ANALYSIS_METHODS",
        "MethodEnum": ["optimal", "heuristic"],  # hints and advice
        "SolvedMethodEnum": ["optimal", "approximate"],  # Ten Thousand's advice and analysis
        "ObjectiveEnum": ["win_probability", "expected_turns"],
        "RulesetIdEnum": "games.api.schema.enums.RULESET_IDS",
        "BoxIdEnum": "games.api.schema.enums.BOX_IDS",
        "MoveEnum": "games.api.schema.enums.MOVES",
        "EventTypeEnum": "games.api.schema.enums.EVENT_TYPES",
        "RecordProblemEnum": "games.api.schema.enums.RECORD_PROBLEMS",
        "AssignmentStatusEnum": "games.api.schema.enums.ASSIGNMENT_STATUSES",
        "StatusEnum": "games.api.schema.enums.GAME_STATUSES",
        "WebhookEventEnum": "games.hooks.services.EVENTS",
        "DeliveryStatusEnum": "games.api.webhooks.bodies.DELIVERY_STATUSES",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.schema.per_ruleset.split_by_ruleset",
        "games.api.schema.per_ruleset.tell_answers_apart",
        "games.api.schema.hooks.link_the_created_game",
        "games.api.schema.hooks.add_game_stream",
        "games.api.schema.hooks.close_request_objects",
        "games.api.schema.seats.seat_is_a_person_or_a_bot",
        "games.api.schema.bounds.bound_request_objects",
        "games.api.schema.hooks.require_bodies",
        "games.api.schema.hooks.document_retry_after",
        "games.api.schema.hooks.for_generated_clients",
    ],
}

# Games each process keeps as it wrote them last, their next move one round trip (games.db.kept;
# PostgreSQL only); 0 keeps none. 20 KiB (one seat) to 50 KiB (four) each: 10-25 MB a worker.
GAMES_KEPT = env_int("GAMES_KEPT", 500, minimum=0)

# Where each process keeps its copy of the optimal-strategy tables (built by `manage.py
# build_strategy` before the service serves; one missing here is copied from the database,
# where the deployment stores each table it built: see games.work.tables).
STRATEGY_DIR = Path(env_str("STRATEGY_DIR", str(BASE_DIR / "strategy-tables")))
# Ten Thousand's bank minimums whose solved tables `build_strategy` builds before serving
# (comma-separated; one table serves every target up to 10,000): another is queued at its
# first request (503 until a worker has built it, 5 to 50 s of one core).
TEN_THOUSAND_BANK_MINIMUMS = [int(v) for v in env_list("TEN_THOUSAND_BANK_MINIMUMS", "0,350")]
# New tables one client address may queue (a rate, as THROTTLE_*; empty: no limit). Past it,
# a request for another missing table is answered 503 and queues nothing.
STRATEGY_BUILD_RATE = env_str("STRATEGY_BUILD_RATE", "3/hour")
# Tables that may wait for a build at once, from all callers: past it, nothing is queued.
STRATEGY_BUILDS_WAITING = env_int("STRATEGY_BUILDS_WAITING", 20, minimum=1)
# How long a worker holds a table it builds (renewed every third of it while the build
# runs): a worker that dies mid-build leaves the table to be taken again after this.
STRATEGY_BUILD_LEASE_SECONDS = env_int("STRATEGY_BUILD_LEASE_SECONDS", 60, minimum=3)
# The niceness added to a build's process: serving requests comes first.
STRATEGY_BUILD_NICE = env_int("STRATEGY_BUILD_NICE", 10, minimum=0)

# Waiting or active games untouched for this many days are abandoned by abandon_idle_games.
ABANDON_AFTER_DAYS = env_int("ABANDON_AFTER_DAYS", 30, minimum=1)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"one_line": {"()": "games.observe.logs.OneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # A request naming another host: one line, not a traceback (games.observe.logs).
    "loggers": {"django.security.DisallowedHost": {"filters": ["one_line"]}},
}
