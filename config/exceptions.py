"""Domain errors and the API's single error envelope."""
