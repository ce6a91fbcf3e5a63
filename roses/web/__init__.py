"""Templates and the static browser client."""
