"""marco-bench: runs the paper's MapReductions with the stock shuffle and MaRCO side by side on one
cluster, reads the job history and MaRCO timelines, and writes results, plots and a report."""
