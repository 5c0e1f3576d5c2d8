"""The server's machinery: cached runs, the job queue, worker processes, the guards,
memory, and the process tunings (``process``)."""
