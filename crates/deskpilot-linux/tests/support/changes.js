// Changes the test pages' scripts share (events_table.rs, kept_web.rs): a box of buttons
// (#dynamic) grown and shrunk, a list (#fruits) rebuilt in another order.
let n = 0;
function add() {
  n += 1;
  const b = document.createElement('button');
  b.textContent = 'Dynamic ' + n;
  document.getElementById('dynamic').appendChild(b);
}
function removeItem() {
  const box = document.getElementById('dynamic');
  if (box.lastElementChild) box.removeChild(box.lastElementChild);
}
function reorder() {
  const list = document.getElementById('fruits');
  const names = [...list.children].map(li => li.textContent).reverse();
  list.replaceChildren(...names.map(t => { const li = document.createElement('li'); li.textContent = t; return li; }));
}
