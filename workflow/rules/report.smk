# The report's items: one rule per item, each with its own caption, category and label
# (a caption is fixed per rule). Plots are drawn (draw_*), tables written (tabulate_*).


for item, spec in catalog.REPORT_ITEMS.items():
    verb = "draw" if spec["kind"] == "plot" else "tabulate"

    rule:
        name:
            f"{verb}_{item.replace('-', '_')}"
        input:
            artifacts=sealed(*spec["inputs"]),
        output:
            item=[
                report(
                    catalog.report_item(item),
                    caption=f"../report/{item}.rst",
                    category=spec["category"],
                    labels={"item": spec["label"]},
                ),
                str(seal.seal_path(catalog.report_item(item))),
            ],
        params:
            code("pipeline.stages.draw_report_item"),
            name=item,
        message:
            JOB_MESSAGE
        log:
            f"logs/report/{item}.log",
        benchmark:
            f"logs/benchmarks/report/{item}.tsv"
        script:
            "../scripts/draw_report_item.py"
