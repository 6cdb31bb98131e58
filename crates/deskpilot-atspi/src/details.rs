//! Targeted reads: properties, hit-testing, text and tables.

use deskpilot_platform::model::{Capability, ElementId, Node, Role, TableCells};
use deskpilot_platform::{BackendError, TableSlice, TextSlice};

use crate::error::to_backend;
use crate::proto::Proto;
use crate::read::{AppTraits, complete_node, read_identity, read_node, unmark_surrogates};

/// The most rows one `read_table` page returns, the most columns it reads (a spreadsheet
/// reports thousands), the most cells in all, and the deepest a hit-test descends.
const MAX_ROWS: u32 = 500;
const MAX_COLUMNS: u32 = 64;
const MAX_CELLS: u32 = 5000;
/// Most parts of one cell read for its text (GTK 3: an icon and a text renderer).
const MAX_PARTS: usize = 4;
const MAX_HIT_DEPTH: usize = 64;

fn backend_error(
    proto: &Proto,
    id: &ElementId,
    what: &str,
) -> impl Fn(zbus::Error) -> BackendError {
    let id = id.clone();
    let what = what.to_owned();
    let timeout = proto.timeout();
    move |e| to_backend(e, &id, &what, timeout)
}

fn require(node: &Node, capability: Capability, what: &str) -> Result<(), BackendError> {
    if node.capabilities.contains(capability) {
        Ok(())
    } else {
        Err(BackendError::Unsupported {
            id: node.id.clone(),
            what: what.to_owned(),
        })
    }
}

/// The node with its attributes and id.
pub async fn properties(
    proto: &Proto,
    id: &ElementId,
    traits: AppTraits,
    inside_secret: bool,
) -> Result<Node, BackendError> {
    let err = backend_error(proto, id, "properties");
    let (identity, attributes) =
        tokio::join!(read_identity(proto, id, traits), proto.attributes(id));
    let identity = identity.map_err(&err)?;
    // The interfaces by AT-SPI's own short names, for people reading properties.
    let platform = identity
        .interfaces
        .iter()
        .map(|i| i.trim_start_matches("org.a11y.atspi.").to_owned())
        .collect();
    let mut node = complete_node(proto, id, identity, traits, inside_secret)
        .await
        .map_err(&err)?;
    node.platform_interfaces = platform;
    node.attributes = attributes.unwrap_or_default().into_iter().collect();
    Ok(node)
}

/// How a hit test's point is given to the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// In the coordinates of the app's screen extents.
    Screen,
    /// Relative to the surface that shows the element (`COORD_TYPE_WINDOW`).
    Window,
}

/// The point to ask at, and how, for (x, y) on the screen. `origin` is the window's screen
/// origin for toolkits that answer in window coordinates. GTK 4 answers in window
/// coordinates; GTK 3 on Wayland in the coordinates of its extents: its toplevel's.
pub fn asked_at(
    (x, y): (i32, i32),
    traits: AppTraits,
    origin: Option<(i32, i32)>,
) -> ((i32, i32), Asked) {
    let gtk4 = traits.reporting == crate::mapping::StateReporting::Gtk4;
    match (traits.window_relative_extents, origin) {
        (true, Some((ox, oy))) if gtk4 => ((x - ox, y - oy), Asked::Window),
        (true, Some((ox, oy))) => ((x - ox, y - oy), Asked::Screen),
        _ => ((x, y), Asked::Screen),
    }
}

/// Descends from `root` with `GetAccessibleAtPoint` to the deepest element at the point
/// (given as `asked`), then climbs `Parent` links back to `root`: some toolkits (GTK 4)
/// answer the deepest element at once, skipping the levels between. Returns outermost first.
pub async fn hit_test(
    proto: &Proto,
    root: &ElementId,
    (qx, qy): (i32, i32),
    asked: Asked,
    traits: AppTraits,
) -> Result<Vec<Node>, BackendError> {
    let relative = asked == Asked::Window;
    let mut deepest = None;
    let mut current = root.clone();
    for _ in 0..MAX_HIT_DEPTH {
        let next = proto
            .accessible_at_point(&current, qx, qy, relative)
            .await
            .map_err(backend_error(proto, &current, "hit test"))?;
        match next.filter(|n| n != &current) {
            Some(next) => {
                deepest = Some(next.clone());
                current = next;
            }
            None => break,
        }
    }
    let Some(deepest) = deepest else {
        return Ok(Vec::new());
    };
    // From the deepest element up to (not including) the root.
    let mut chain = vec![deepest];
    for _ in 0..MAX_HIT_DEPTH {
        let last = chain.last().expect("chain starts non-empty");
        let parent = proto
            .parent(last)
            .await
            .map_err(backend_error(proto, last, "hit test"))?;
        match parent {
            // The application above its windows ends the chain: a point found outside
            // `root` (GTK 3's popup menus on Wayland place their own hit tests elsewhere).
            Some(parent) if &parent != root && parent.object != crate::proto::ROOT_PATH => {
                chain.push(parent)
            }
            _ => break,
        }
    }
    chain.reverse();
    // Outermost first, one at a time: below a password field nothing may have its text read,
    // and only the nodes above say whether there is one.
    let mut nodes = Vec::with_capacity(chain.len());
    let mut inside_secret = false;
    for id in &chain {
        let node = read_node(proto, id, traits, inside_secret)
            .await
            .map_err(backend_error(proto, id, "hit test"))?;
        inside_secret = node.is_secret();
        nodes.push(node);
    }
    Ok(nodes)
}

/// Characters `start..end` (explicit end: GTK 4 answers `GetText(0, -1)` with ""), in the
/// toolkit's own units (Gecko: UTF-16 units, its markers removed from the text).
pub async fn text(
    proto: &Proto,
    node: &Node,
    start: u32,
    end: Option<u32>,
    traits: AppTraits,
) -> Result<TextSlice, BackendError> {
    require(node, Capability::Text, "the Text interface")?;
    let err = backend_error(proto, &node.id, "read text");
    let total = proto.character_count(&node.id).await.map_err(&err)?.max(0) as u32;
    let start = start.min(total);
    let end = end.unwrap_or(total).clamp(start, total);
    let text = if end > start {
        let text = proto
            .text(&node.id, start as i32, end as i32)
            .await
            .map_err(&err)?;
        unmark_surrogates(text, traits)
    } else {
        String::new()
    };
    Ok(TextSlice {
        text,
        start,
        end,
        total,
    })
}

/// A page of rows with the column headers (header objects, else column descriptions).
pub async fn table(
    proto: &Proto,
    node: &Node,
    first_row: u32,
    max_rows: u32,
    traits: AppTraits,
) -> Result<TableSlice, BackendError> {
    require(node, Capability::Table, "the Table interface")?;
    let err = backend_error(proto, &node.id, "read table");
    let (rows, columns) = proto.table_size(&node.id).await.map_err(&err)?;
    let (row_count, column_count) = (rows.max(0) as u32, columns.max(0) as u32);
    let read_columns = column_count.min(MAX_COLUMNS);
    let headers = futures_util::future::join_all((0..read_columns as i32).map(|c| async move {
        if let Ok(Some(header)) = proto.column_header(&node.id, c).await
            && let Ok(header) = read_node(proto, &header, traits, false).await
            && !header.display_name().is_empty()
        {
            return header.display_name().to_owned();
        }
        proto
            .column_description(&node.id, c)
            .await
            .unwrap_or_default()
    }))
    .await;
    let first_row = first_row.min(row_count);
    let page_rows = max_rows.min(MAX_ROWS).min(MAX_CELLS / read_columns.max(1));
    let last = first_row.saturating_add(page_rows).min(row_count);
    let cells = futures_util::future::join_all((first_row..last).flat_map(|r| {
        (0..read_columns).map(move |c| async move { cell_text(proto, node, r, c, traits).await })
    }))
    .await;
    let mut rows_out = Vec::with_capacity((last - first_row) as usize);
    for row in cells.chunks(read_columns.max(1) as usize) {
        rows_out.push(
            row.iter()
                .cloned()
                .collect::<Result<Vec<_>, _>>()
                .map_err(&err)?,
        );
    }
    if read_columns == 0 {
        rows_out.clear();
    }
    Ok(TableSlice {
        headers,
        rows: rows_out,
        first_row,
        row_count,
        column_count,
    })
}

/// The cells of rows `first_row..` (at most `max_rows`, and `MAX_CELLS` cells), each with
/// its name; the table's row count, and the row after the last read.
pub async fn table_cell_names(
    proto: &Proto,
    table: &ElementId,
    first_row: u32,
    max_rows: u32,
) -> Result<TableCells, BackendError> {
    let err = backend_error(proto, table, "read table cells");
    let (rows, columns) = proto.table_size(table).await.map_err(&err)?;
    let (row_count, columns) = (rows.max(0) as u32, columns.max(0) as u32);
    let columns = columns.min(MAX_COLUMNS);
    let first_row = first_row.min(row_count);
    let page_rows = max_rows.min(MAX_CELLS / columns.max(1));
    let last = first_row.saturating_add(page_rows).min(row_count);
    let cells = futures_util::future::join_all((first_row..last).flat_map(|r| {
        (0..columns).map(move |c| async move {
            let Some(cell) = proto.cell_at(table, r as i32, c as i32).await? else {
                return Ok::<_, zbus::Error>(Vec::new());
            };
            let name = proto.name(&cell).await?;
            if !name.is_empty() {
                return Ok(vec![(cell, name)]);
            }
            // GTK 3 packs a column's renderers in one cell: the text is a child's name (a
            // file chooser's icon, then its name).
            let parts = proto.children(&cell).await?;
            let mut named = Vec::new();
            for part in parts.into_iter().take(MAX_PARTS) {
                let name = proto.name(&part).await?;
                if !name.is_empty() {
                    named.push((part, name));
                }
            }
            Ok(named)
        })
    }))
    .await;
    let mut out = Vec::with_capacity(cells.len());
    for cell in cells {
        out.extend(cell.map_err(&err)?);
    }
    Ok(TableCells {
        row_count,
        next_row: last,
        cells: out,
    })
}

/// A cell's text: its name, else its text, else the names of the labels inside it.
async fn cell_text(
    proto: &Proto,
    table: &Node,
    row: u32,
    column: u32,
    traits: AppTraits,
) -> zbus::Result<String> {
    let Some(cell) = proto.cell_at(&table.id, row as i32, column as i32).await? else {
        return Ok(String::new());
    };
    let node = read_node(proto, &cell, traits, false).await?;
    if !node.display_name().is_empty() {
        return Ok(node.display_name().to_owned());
    }
    if node.role == Role::Password {
        return Ok(String::new());
    }
    if node.capabilities.contains(Capability::Text) {
        let count = proto.character_count(&cell).await?.max(0);
        if count > 0 {
            let text = proto.text(&cell, 0, count.min(1000)).await?;
            return Ok(unmark_surrogates(text, traits));
        }
    }
    let mut parts = Vec::new();
    for child in proto
        .children(&cell)
        .await
        .unwrap_or_default()
        .iter()
        .take(8)
    {
        if let Ok(name) = proto.name(child).await
            && !name.is_empty()
        {
            parts.push(name);
        }
    }
    Ok(parts.join(" "))
}
