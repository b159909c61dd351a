//! Geometry of the dashboard's inline SVG charts, computed on the server so
//! the page needs no script and no inline style (the CSP allows neither).
//! Templates only print these numbers and our own labels.

/// One horizontal bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// Label on the left.
    pub label: String,
    /// The count shown after the bar.
    pub value: i64,
    /// CSS class of the bar (e.g. `sev-high`).
    pub class: String,
    /// Top of the row.
    pub y: u32,
    /// Bar width in view-box units.
    pub width: u32,
}

/// A horizontal bar chart.
#[derive(Debug, Clone, PartialEq)]
pub struct BarChart {
    /// Bars, top to bottom.
    pub bars: Vec<Bar>,
    /// View-box height.
    pub height: u32,
    /// Sum of the values.
    pub total: i64,
}

/// Height of a bar row.
pub const ROW: u32 = 26;
/// Width available to the longest bar.
pub const BAR_SPACE: u32 = 300;

/// Lays out `(label, value, class)` rows as bars scaled to the largest value.
pub fn bar_chart(rows: Vec<(String, i64, String)>) -> BarChart {
    let max = rows.iter().map(|r| r.1).max().unwrap_or(0).max(1);
    let total = rows.iter().map(|r| r.1).sum();
    let bars: Vec<Bar> = rows
        .into_iter()
        .enumerate()
        .map(|(i, (label, value, class))| Bar {
            label,
            value,
            class,
            y: i as u32 * ROW,
            // A non-zero count always shows at least a sliver.
            width: if value > 0 {
                ((value as f64 / max as f64) * BAR_SPACE as f64)
                    .round()
                    .max(2.0) as u32
            } else {
                0
            },
        })
        .collect();
    BarChart {
        height: (bars.len() as u32 * ROW).max(ROW),
        bars,
        total,
    }
}

/// One day's column of the scans-over-time chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// `MM-DD`.
    pub label: String,
    /// Whether to print the label (every few days).
    pub show_label: bool,
    /// Left edge.
    pub x: u32,
    /// Successful scans.
    pub ok: i64,
    /// Failed scans.
    pub failed: i64,
    /// Top and height of the successful part.
    pub ok_y: u32,
    /// Height of the successful part.
    pub ok_h: u32,
    /// Top of the failed part (stacked above).
    pub failed_y: u32,
    /// Height of the failed part.
    pub failed_h: u32,
}

/// A stacked column chart of scans per day.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnChart {
    /// One column per day, oldest first.
    pub columns: Vec<Column>,
    /// The largest daily total (the scale).
    pub max: i64,
    /// Sum over the period.
    pub total: i64,
}

/// Plot height of the column chart.
pub const PLOT_H: u32 = 120;
/// Width of a day.
pub const COL_W: u32 = 22;

/// Lays out `(day, ok, failed)` for every day from `days` (missing days are zero).
pub fn column_chart(days: &[String], counts: &[(String, i64, i64)]) -> ColumnChart {
    let lookup = |d: &str| {
        counts
            .iter()
            .find(|(day, _, _)| day == d)
            .map(|(_, ok, failed)| (*ok, *failed))
            .unwrap_or((0, 0))
    };
    let max = days
        .iter()
        .map(|d| {
            let (ok, failed) = lookup(d);
            ok + failed
        })
        .max()
        .unwrap_or(0)
        .max(1);
    let scale = |v: i64| ((v as f64 / max as f64) * PLOT_H as f64).round() as u32;
    let mut total = 0;
    let columns = days
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let (ok, failed) = lookup(d);
            total += ok + failed;
            let (ok_h, failed_h) = (scale(ok), scale(failed));
            Column {
                label: d.get(5..).unwrap_or(d).to_string(),
                show_label: i % 3 == 0 || i + 1 == days.len(),
                x: i as u32 * COL_W,
                ok,
                failed,
                ok_y: PLOT_H - ok_h,
                ok_h,
                failed_y: PLOT_H - ok_h - failed_h,
                failed_h,
            }
        })
        .collect();
    ColumnChart {
        columns,
        max,
        total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_value_and_zero_stays_empty() {
        let c = bar_chart(vec![
            ("a".into(), 10, "x".into()),
            ("b".into(), 5, "x".into()),
            ("c".into(), 0, "x".into()),
        ]);

        assert_eq!(c.bars[0].width, BAR_SPACE);
        assert_eq!(c.bars[1].width, BAR_SPACE / 2);
        assert_eq!(c.bars[2].width, 0);
        assert_eq!(c.total, 15);
        assert_eq!(c.bars[2].y, 2 * ROW);
    }

    #[test]
    fn columns_stack_failures_on_successes_and_fill_missing_days() {
        let days: Vec<String> = vec!["2026-12-01".into(), "2026-12-02".into()];
        let c = column_chart(&days, &[("2026-12-02".into(), 3, 1)]);

        assert_eq!(c.columns[0].ok_h, 0);
        assert_eq!(c.columns[1].ok_h + c.columns[1].failed_h, PLOT_H);
        assert_eq!(
            c.columns[1].failed_y + c.columns[1].failed_h,
            c.columns[1].ok_y
        );
        assert_eq!(c.total, 4);
        assert_eq!(c.columns[1].label, "12-02");
    }
}
