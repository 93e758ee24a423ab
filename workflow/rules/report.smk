# The report's items: one rule per item, each with its own caption, category and label
# (a caption is fixed per rule). Plots are drawn (draw_*), tables written (tabulate_*).


for item, spec in catalog.REPORT_ITEMS.items():
    verb = "draw" if spec["kind"] == "plot" else "tabulate"

    rule:
        name:
            f"{verb}_{item.replace('-', '_')}"
        input:
            artifacts=get_edition_files(spec["inputs"]),
        output:
            item=[
                report(
                    catalog.report_item(item),
                    caption=f"../report/{item}.rst",
                    category=spec["category"],
                    subcategory="{edition}",
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
            f"logs/report/{{edition}}/{item}.log",
        benchmark:
            f"logs/benchmarks/report/{{edition}}/{item}.tsv"
        script:
            "../scripts/draw_report_item.py"


rule tabulate_editions:
    input:
        words=expand_editions(catalog.WORDS),
        openers=expand_editions(catalog.OPENERS),
        optimal_openers=expand_editions(catalog.OPTIMAL_OPENERS),
        history=sealed(catalog.HISTORY),
    output:
        table=[
            report(
                catalog.EDITIONS_TABLE,
                caption="../report/editions.rst",
                category="Editions",
                labels={"item": "The editions side by side (table)"},
            ),
            str(seal.seal_path(catalog.EDITIONS_TABLE)),
        ],
    params:
        code("pipeline.stages.tabulate_editions"),
        editions=enabled_editions(config),
        titles=[config["editions"][e]["title"] for e in enabled_editions(config)],
    message:
        JOB_MESSAGE
    log:
        "logs/report/editions.log",
    benchmark:
        "logs/benchmarks/report/editions.tsv"
    script:
        "../scripts/tabulate_editions.py"


rule tabulate_headline:
    input:
        words=expand_editions(catalog.WORDS),
        optimal_openers=expand_editions(catalog.OPTIMAL_OPENERS),
        summaries=expand_editions(catalog.BENCHMARK_SUMMARY),
        history=sealed(catalog.HISTORY),
    output:
        headline=[catalog.HEADLINE, str(seal.seal_path(catalog.HEADLINE))],
    params:
        code("pipeline.stages.tabulate_headline"),
        editions=enabled_editions(config),
        titles=[config["editions"][e]["title"] for e in enabled_editions(config)],
    message:
        JOB_MESSAGE
    log:
        "logs/report/headline.log",
    benchmark:
        "logs/benchmarks/report/headline.tsv"
    script:
        "../scripts/tabulate_headline.py"
