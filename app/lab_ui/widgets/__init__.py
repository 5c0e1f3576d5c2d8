"""What many screens share: charts and their tables, inputs and parsing, token chips,
captions, the page's layout."""
