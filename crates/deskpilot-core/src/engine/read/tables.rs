//! Finding in long tables: a table whose children the walk did not read (GTK 3 creates a tree
//! view's cell objects only when asked; a file chooser listing 300 files has 1,200) is
//! searched by its cells' names through its row access, page by page, and the cells that
//! match are read and put under it, so that a selector finds them where they are.

use crate::engine::Engine;
use crate::model::{Capability, Realization, Role, Tree};
use crate::platform::Secrecy;
use crate::selector::Selector;
use std::collections::HashSet;
use std::time::Duration;
use tokio::time::Instant;

/// Rows read per page.
const PAGE_ROWS: u32 = 250;

/// Most rows searched in one table.
const MAX_ROWS: u32 = 10_000;

/// Tables with more children than this are not searched (a spreadsheet's sheet has
/// billions): two calls a cell.
const MAX_SEARCHED: u64 = 20_000;

/// Most tables searched by one find.
const MAX_TABLES: usize = 4;

/// Most matching cells read per table.
const MAX_CELLS: usize = 50;

/// For a selector whose last step names its element: `tree`'s unwalked tables searched by
/// name, within `time`. Returns the tree with the matching cells under their tables, and
/// the tables searched to the end; `None` when there was nothing to search.
pub(crate) async fn search_unwalked_tables(
    engine: &Engine,
    tree: &Tree,
    selector: &Selector,
    secrecy: Secrecy,
    time: Duration,
) -> Option<(Tree, HashSet<usize>)> {
    let last = selector.steps.last()?;
    let name = last.name.as_ref()?;
    // What a table's cells can be; a selector for anything else is not looked for there.
    let cell_like = last.role.is_none_or(|r| {
        matches!(
            r,
            Role::Cell | Role::Row | Role::ListItem | Role::TreeItem | Role::RowHeader
        )
    });
    if !cell_like {
        return None;
    }
    let tables: Vec<usize> = tree
        .incomplete()
        .filter(|(i, r)| {
            matches!(r, Realization::NotRealized { logical } if logical.is_some_and(|l| u64::from(l) <= MAX_SEARCHED))
                && tree.nodes[*i].node.capabilities.contains(Capability::Table)
        })
        .map(|(i, _)| i)
        .take(MAX_TABLES)
        .collect();
    if tables.is_empty() {
        return None;
    }
    let deadline = Instant::now() + time;
    let mut grown = tree.clone();
    let mut searched = HashSet::new();
    for table in tables {
        let id = tree.nodes[table].node.id.clone();
        let mut first_row = 0;
        let mut cells = Vec::new();
        let complete = loop {
            let Ok(page) = engine
                .backend()
                .table_cell_names(&id, first_row, PAGE_ROWS)
                .await
            else {
                break false;
            };
            cells.extend(page.cells.into_iter().filter(|(_, n)| name.matches(n)));
            if page.next_row <= first_row {
                break page.next_row >= page.row_count;
            }
            first_row = page.next_row;
            if first_row >= page.row_count.min(MAX_ROWS) {
                break page.row_count <= MAX_ROWS;
            }
            if Instant::now() >= deadline {
                break false;
            }
        };
        for (cell, _) in cells.into_iter().take(MAX_CELLS) {
            if let Ok(node) = engine.backend().node(&cell, secrecy).await {
                grown.push(node, Some(table));
            }
        }
        if complete {
            searched.insert(table);
        }
    }
    Some((grown, searched))
}
