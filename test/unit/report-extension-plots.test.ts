import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { capacityReportPlot } from "../../lib/harness/capacity/capacity-plot.ts";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";
import { extensionVerdict, type ExtensionVerdict } from "../../lib/harness/run-extension.ts";
import { plotsOf, withPlots, type ExtensionPlot } from "../../lib/harness/reports/extension-plots.ts";
import { numericFigures } from "../../lib/harness/reports/extension-series.ts";
import { htmlReport } from "../../lib/harness/reports/html-report.ts";
import { writeReports } from "../../lib/harness/reports/write-reports.ts";
import { failingSummary } from "./report-fixtures.ts";

const step = (offeredPerSecond: number, throughputPerSecond: number, p95Ms: number) => ({
  offeredPerSecond,
  throughputPerSecond,
  p95Ms,
});

// What the plot reads of a CapacityAnalysis: the steps' offered and achieved rates and p95, the knee, the safe rate.
const STEPS = [step(100, 100, 4), step(200, 199.5, 5), step(400, 260, 900)];
const ANALYSIS = { steps: STEPS, knee: STEPS[1], safeOperatingRate: 139.65 };

function summaryWith(...extensions: ExtensionVerdict[]): RunSummary {
  return { ...failingSummary(), extensions };
}

function render(summary: RunSummary): string {
  return htmlReport({ summary, timeline: undefined, dashboards: new Map(), notes: [] });
}

const capacity = (plot: ExtensionPlot | undefined) =>
  extensionVerdict("capacity", {
    figures: plot ? withPlots({ kneeOfferedPerSecond: 200 }, [plot]) : { kneeOfferedPerSecond: 200 },
  });

describe("extension plots in report.html", () => {
  it("should draw an extension's plot as inline SVG with a caption naming the knee and the safe rate", () => {
    const html = render(summaryWith(capacity(capacityReportPlot(ANALYSIS, 300, 0.7))));
    expect(html).toContain(
      '<figure class="plot"><div class="plot-title">Capacity: throughput and p95 latency against offered load</div>',
    );
    expect(html).toMatch(/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*aria-label="Achieved throughput against/);
    expect(html).toContain('aria-label="p95 latency against offered load"');
    expect(html).toContain(
      '<figcaption class="plot-caption">Knee: 200/s offered, 200/s achieved at p95 5.0 ms (the highest step within the SLO table). Safe operating rate: 140/s (70% of the knee&#39;s throughput).',
    );
    // The measured line in colour, the ideal and the SLO grey and dashed, the knee marked on both panels.
    expect(html).toMatch(
      /<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="[\d., ]+"><title>achieved</,
    );
    expect(html).toMatch(
      /stroke="#999" stroke-width="1.5" stroke-dasharray="4 3" points="[\d., ]+"><title>offered \(ideal\)</,
    );
    expect(html).toContain("<title>SLO p95 300 ms</title>");
    expect(html.match(/<title>knee 200\/s offered<\/title><\/line>/g)).toHaveLength(2);
    // The plot is data: its points are not exported as figures.
    expect(html).toContain('<td>kneeOfferedPerSecond</td><td class="num">200</td>');
    expect(html).not.toContain("<td>plots");
  });

  it("should say there is no knee when no step met the SLO", () => {
    const none = { ...ANALYSIS, knee: undefined, safeOperatingRate: undefined };
    const html = render(summaryWith(capacity(capacityReportPlot(none, 300, 0.7))));
    expect(html).toContain('<figcaption class="plot-caption">No knee: no step met the SLO table');
    expect(html).not.toContain("<title>knee");
  });

  it("should draw nothing for an extension without plots", () => {
    const html = render(summaryWith(capacity(undefined)));
    expect(html).not.toContain('<figure class="plot"');
    expect(html).not.toContain('<figcaption class="plot-caption"');
    // The fixture's webhook sink carries series but no plot.
    expect(render(failingSummary())).not.toContain('<figure class="plot">');
  });

  it("should escape every text of a plot, so summary.json cannot put markup into the page", () => {
    const plot: ExtensionPlot = {
      title: "<script>alert(1)</script>",
      caption: 'knee "<b>" & more',
      xUnit: "x<img src=x>",
      panels: [{ title: "p<i>", yUnit: "u<u>", lines: [{ name: "</title><script>", points: [{ x: 1, y: 2 }] }] }],
      markers: [{ x: 1, label: "<svg onload=alert(1)>" }],
    };
    const html = render(summaryWith(capacity(plot)));
    expect(html).toContain('<div class="plot-title">&lt;script&gt;alert(1)&lt;/script&gt;</div>');
    expect(html).toContain("knee &quot;&lt;b&gt;&quot; &amp; more");
    expect(html).toContain("<title>&lt;/title&gt;&lt;script&gt;</title>");
    expect(html).not.toMatch(/<script|<img|<svg onload|<b>|<i>|<u>/);
  });

  it("should leave out a malformed plot and say why", () => {
    const verdict = extensionVerdict("capacity", {
      figures: {
        plots: [
          { title: "no panels", caption: "", xUnit: "x", panels: [] },
          {
            title: "bad point",
            caption: "",
            xUnit: "x",
            panels: [{ title: "p", yUnit: "u", lines: [{ name: "l", points: [{ x: 1, y: "2" }] }] }],
          },
          { title: "ok", caption: "", xUnit: "x", panels: [{ title: "p", yUnit: "u", lines: [] }] },
        ],
      },
    });
    const { plots, problems } = plotsOf(verdict);
    expect(plots.map((p) => p.title)).toEqual(["ok"]);
    expect(problems).toEqual([
      "capacity: plot no panels left out: panels is not a list of at least one panel",
      "capacity: plot bad point left out: panel p: line l: a point is not {x, y} with finite numbers and x >= 0",
    ]);
    expect(plotsOf(extensionVerdict("x", { figures: { plots: { title: "t" } } })).problems).toEqual([
      "x: figures.plots is not a list",
    ]);
    expect(numericFigures({ plots: { n: 1 }, n: 2 })).toEqual([["n", 2]]);
  });

  it("should write the plot from summary.json alone, and the problems of a malformed one as report notes", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "atd-plots-"));
    try {
      const bad = extensionVerdict("soak", { figures: { plots: [{ title: "broken" }] } });
      const summary = summaryWith(capacity(capacityReportPlot(ANALYSIS, 300, 0.7)), bad);
      // Through JSON, as `harness report` reads it.
      const written = await writeReports(dir, JSON.parse(JSON.stringify(summary)) as RunSummary);
      expect(written.notes).toContain("soak: plot broken left out: caption is not text");
      const html = await readFile(path.join(dir, "report.html"), "utf8");
      expect(html).toContain("Safe operating rate: 140/s");
      expect(html).toContain("<li>soak: plot broken left out: caption is not text</li>");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
