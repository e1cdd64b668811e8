#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "floorman.settings")
    from django.core.management import execute_from_command_line  # noqa: PLC0415 - after the settings module is chosen

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
