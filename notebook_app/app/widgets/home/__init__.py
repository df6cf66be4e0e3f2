"""The Home pane: file list, file summary, the file with its entries."""
