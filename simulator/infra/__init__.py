"""Infrastructure every layer may use and that knows nothing of CRMs or runs: the error types that
end an episode (`errors`), secrets redacted by value from everything written (`secrets`), logging
for the command line (`log`), writing files safely and reading them back with damage named
(`files`), reading the user's input files with their mistakes named (`inputs`; their pydantic
models' errors put in that form by `validation`), and a person at the terminal (`console`).
"""
