"""User simulators: the persona library, and the simulated people who pose tasks to the agent."""
