"""The lesson around the screens: presenter mode and the lesson order, lesson links,
handouts and printed tables, exercises, each screen's primary controls."""
