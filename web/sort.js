/*
 * kmig web - click a table header to sort its column.  Tables read fine
 * without this script; it only adds buttons to the headers of tables with
 * class "sortable".  Cells sort by their data-v attribute when present,
 * else by their text; columns whose values are all numbers sort numerically.
 * Script errors are recorded in the data-js-errors attribute of <html>.
 */
(function () {
	'use strict';
	var root = document.documentElement;

	window.addEventListener('error', function (e) {
		var what = e.message || 'failed to load ' +
			(e.target && (e.target.src || e.target.href));
		root.setAttribute('data-js-errors',
			(root.getAttribute('data-js-errors') || '') + what + '\n');
	}, true);

	function key(row, col) {
		var cell = row.cells[col];

		if (!cell)
			return '';
		return cell.hasAttribute('data-v') ? cell.getAttribute('data-v') :
			cell.textContent.trim();
	}

	function isNum(s) {
		return s !== '' && !isNaN(Number(s));
	}

	function sortBy(table, th, col) {
		var body = table.tBodies[0];
		var rows = Array.prototype.slice.call(body.rows);
		var desc = th.getAttribute('aria-sort') !== 'descending';
		var numeric = rows.every(function (r) {
			var k = key(r, col);
			return k === '' || isNum(k);
		});

		rows.sort(function (a, b) {
			var x = key(a, col), y = key(b, col), d;

			if (numeric)
				d = (x === '' ? -Infinity : Number(x)) -
				    (y === '' ? -Infinity : Number(y));
			else
				d = x.localeCompare(y);
			return desc ? -d : d;
		});
		Array.prototype.forEach.call(th.parentNode.cells, function (h) {
			h.removeAttribute('aria-sort');
		});
		th.setAttribute('aria-sort', desc ? 'descending' : 'ascending');
		rows.forEach(function (r) {
			body.appendChild(r);
		});
	}

	function init() {
		var tables = document.querySelectorAll('table.sortable');

		Array.prototype.forEach.call(tables, function (table) {
			var head = table.tHead && table.tHead.rows[0];

			if (!head || !table.tBodies.length)
				return;
			Array.prototype.forEach.call(head.cells, function (th, col) {
				var b = document.createElement('button');

				b.type = 'button';
				while (th.firstChild)
					b.appendChild(th.firstChild);
				th.appendChild(b);
				b.addEventListener('click', function () {
					sortBy(table, th, col);
				});
			});
		});
		root.setAttribute('data-js', 'ready');
	}

	if (document.readyState === 'loading')
		document.addEventListener('DOMContentLoaded', init);
	else
		init();
}());
