# Floorman production image: one image for web (gunicorn, the default command), ws
# (uvicorn, /ws/ only) and worker (Celery); docker-compose.yml picks the command.
FROM python:3.11-slim-bookworm

# FLOORMAN_VAR_DIR: only embedded mode (no DATABASE_URL) writes there; production
# keeps no files in the container.
ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    DJANGO_SETTINGS_MODULE=floorman.settings \
    FLOORMAN_VAR_DIR=/var/lib/floorman

# DejaVu: the results PDF prints every player's name (Dvořák, Łukasz, Иван), which the
# PDF's built-in fonts cannot.
RUN apt-get update \
    && apt-get install --yes --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

# Runs as this user; the application files stay owned by root and read-only to it.
RUN groupadd --system --gid 10001 floorman \
    && useradd --system --uid 10001 --gid floorman --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin floorman \
    && install -d -o floorman -g floorman -m 0700 /var/lib/floorman

WORKDIR /app

# Dependencies first (every one pinned in requirements.lock), so code changes reuse
# this layer.
COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY . .

# Static files are collected at build time and served by whitenoise from the image.
# Importing the settings needs a SECRET_KEY, and without DATABASE_URL they run in
# embedded mode, which creates FLOORMAN_VAR_DIR: give both throwaway values for this
# step only, so no key and no var/ directory end up in the image. (The compiled
# message catalogues, locale/*/LC_MESSAGES/django.mo, are committed and copied above.)
RUN DATABASE_URL= REDIS_URL= DEBUG=false \
       SECRET_KEY=build-only-collectstatic-not-a-secret-0123456789abcdefghijklmnop \
       FLOORMAN_VAR_DIR=/tmp/floorman-build \
       python manage.py collectstatic --noinput --verbosity 0 \
    && rm -rf /tmp/floorman-build \
    && test ! -e var \
    && python -m compileall -q .

USER floorman
EXPOSE 8000

# Workers: WEB_CONCURRENCY (gunicorn reads it; docker-compose.yml passes --workers).
# The reverse proxy in front buffers requests and responses for the sync workers.
CMD ["gunicorn", "web.wsgi:application", "--bind", "0.0.0.0:8000", "--forwarded-allow-ips", "*"]
