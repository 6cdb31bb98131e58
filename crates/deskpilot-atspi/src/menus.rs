//! Open menus of apps whose bounds count from their window (GTK 3 native on GNOME's
//! Wayland). A menu's items count from the popup surface that shows them (their extents in
//! window coordinates), which only the compositor places: GTK's own guess of the popup's
//! place was 37 pixels off on GNOME (docs/toolkits.md). An item goes in the one popup of its
//! app that can hold its menu's items, else nowhere: never at a guess.

use deskpilot_platform::Popup;
use deskpilot_platform::model::{ElementId, Rect, Role, Tree};

use crate::proto::Proto;

/// How far up an element's menu is looked for.
const MENU_DEPTH: usize = 8;

/// The origin of the one popup of `pid` that holds `items` (window-relative), if exactly one
/// does.
pub fn holding(popups: &[Popup], pid: Option<u32>, items: Rect) -> Option<(i32, i32)> {
    let fits = |p: &&Popup| {
        (pid.is_none() || p.pid.is_none() || p.pid == pid)
            && items.x >= 0
            && items.y >= 0
            && items.x + items.width <= p.bounds.width
            && items.y + items.height <= p.bounds.height
    };
    let mut holders = popups.iter().filter(fits);
    match (holders.next(), holders.next()) {
        (Some(one), None) => Some((one.bounds.x, one.bounds.y)),
        _ => None,
    }
}

/// For each node, the index of the menu that shows it: its nearest ancestor of role Menu.
pub fn menus_of(tree: &Tree) -> Vec<Option<usize>> {
    let mut menus = vec![None; tree.len()];
    for index in 0..tree.len() {
        menus[index] =
            tree.nodes[index]
                .parent
                .and_then(|parent| match tree.nodes[parent].node.role {
                    Role::Menu => Some(parent),
                    _ => menus[parent],
                });
    }
    menus
}

/// Extents as a rectangle; `None` for a toolkit's "nowhere" (GTK: `i32::MIN`).
fn rect_of((x, y, w, h): (i32, i32, i32, i32)) -> Option<Rect> {
    (x != i32::MIN && y != i32::MIN).then(|| Rect::new(x, y, w, h))
}

/// The smallest rectangle holding all of `rects`.
fn union(rects: impl Iterator<Item = Rect>) -> Option<Rect> {
    rects.reduce(|a, b| {
        let (x, y) = (a.x.min(b.x), a.y.min(b.y));
        let right = (a.x + a.width).max(b.x + b.width);
        let bottom = (a.y + a.height).max(b.y + b.height);
        Rect::new(x, y, right - x, bottom - y)
    })
}

/// Places the nodes of `tree` shown in open menus in their popups (`popups` not empty).
pub async fn place_menus(proto: &Proto, tree: &mut Tree, popups: &[Popup], pid: Option<u32>) {
    let menus = menus_of(tree);
    let shown: Vec<usize> = (0..tree.len())
        .filter(|&i| menus[i].is_some() && tree.nodes[i].node.bounds.is_some())
        .collect();
    let asks = shown
        .iter()
        .map(|&i| proto.window_extents(&tree.nodes[i].node.id));
    let extents = futures_util::future::join_all(asks).await;
    let within: Vec<(usize, Option<Rect>)> = shown
        .iter()
        .zip(extents)
        .map(|(&i, e)| (i, e.ok().and_then(rect_of)))
        .collect();
    for &(index, rect) in &within {
        let menu = menus[index];
        let siblings = within
            .iter()
            .filter(|(i, _)| menus[*i] == menu)
            .filter_map(|(_, r)| *r);
        let origin = union(siblings).and_then(|items| holding(popups, pid, items));
        tree.nodes[index].node.bounds = rect.zip(origin).map(|(r, (x, y))| r.offset(x, y));
    }
}

/// Where `id` shows when it is in an open menu (`None`: it is not); inside, `Some(None)`
/// when no single popup of `pid` holds it.
pub async fn place_in_menu(
    proto: &Proto,
    id: &ElementId,
    popups: &[Popup],
    pid: Option<u32>,
) -> Option<Option<Rect>> {
    in_menu(proto, id).await.then_some(())?;
    let rect = proto.window_extents(id).await.ok().and_then(rect_of);
    Some(rect.and_then(|r| holding(popups, pid, r).map(|(x, y)| r.offset(x, y))))
}

/// Whether a menu is among `id`'s nearest ancestors.
async fn in_menu(proto: &Proto, id: &ElementId) -> bool {
    let mut current = id.clone();
    for _ in 0..MENU_DEPTH {
        let Ok(Some(parent)) = proto.parent(&current).await else {
            return false;
        };
        let role = proto.role(&parent).await.ok();
        let role = role.map(|r| crate::mapping::map_role(r, false).0);
        match role {
            Some(Role::Menu) => return true,
            Some(Role::MenuBar | Role::Window | Role::Dialog | Role::Application) | None => {
                return false;
            }
            Some(_) => current = parent,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn popup(x: i32, y: i32, w: i32, h: i32) -> Popup {
        Popup {
            pid: Some(7),
            bounds: Rect::new(x, y, w, h),
        }
    }

    /// Items go in the one popup that holds them all; with two that could, nowhere.
    #[test]
    fn menu_items_go_in_the_one_popup_that_holds_them() {
        let file = popup(-6, 90, 151, 116);
        let items = Rect::new(6, 5, 139, 104);
        assert_eq!(
            holding(std::slice::from_ref(&file), Some(7), items),
            Some((-6, 90))
        );
        let other_app = Popup {
            pid: Some(8),
            ..popup(300, 90, 200, 200)
        };
        assert_eq!(
            holding(&[file.clone(), other_app], Some(7), items),
            Some((-6, 90))
        );
        let small = popup(140, 150, 100, 60);
        assert_eq!(
            holding(&[file.clone(), small], Some(7), items),
            Some((-6, 90))
        );
        let big = popup(140, 150, 300, 300);
        assert_eq!(holding(&[file, big], Some(7), items), None);
        assert_eq!(holding(&[], Some(7), items), None);
    }

    #[test]
    fn unions_and_nowhere() {
        let rects = [Rect::new(6, 5, 139, 26), Rect::new(6, 83, 139, 26)];
        assert_eq!(union(rects.into_iter()), Some(Rect::new(6, 5, 139, 104)));
        assert_eq!(rect_of((i32::MIN, i32::MIN, 1, 1)), None);
    }
}
