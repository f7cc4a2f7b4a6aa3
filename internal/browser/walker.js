// The snapshot walker. It runs in an isolated world (invisible to the page,
// no DOM mutation, not subject to the page's CSP) and returns the frame's
// accessibility tree as Chromium computes it: roles, names, values and
// states, in flat-tree order (shadow roots and slots included). It is called
// as a function of {interactive: bool, boxes: bool} and, for -s, the
// element to start from, and returns one string (cheaper to carry and
// split than JSON): a header line "hosts width height widgets found"
// (found is 0 when the -s element is not rendered), then one record per node, separated by \x1e, of
// fields separated by \x1f: parent, role, name, value, key, props
// ("name=value" joined by ","), url, box ("x,y,w,h" in client pixels).
// key identifies an element in this world (refs resolve through
// __browse.get(key)); hosts counts elements met for the first time that
// may hold a closed shadow root: the caller then looks for closed roots
// with the DOM snapshot domain, hands any to __browse.closed, and walks
// again. widgets counts media
// elements with the browser's own controls, which live in a shadow root no
// script can reach: the caller takes such a frame from getFullAXTree.
function (opts, scope) {
  const W = globalThis.__browse || (globalThis.__browse = {
    keys: new WeakMap(), els: new Map(), next: 0,
    closed: new WeakMap(), checked: new WeakSet(),
    get(k) { const r = this.els.get(k); const el = r && r.deref(); return el && el.isConnected ? el : null; },
  });
  let hosts = 0;
  if (W.els.size > 20000) {
    // Forget the keys of elements the page has dropped.
    for (const [k, r] of W.els) if (!r.deref()) W.els.delete(k);
  }
  const keyOf = (el) => {
    let k = W.keys.get(el);
    if (!k) { k = ++W.next; W.keys.set(el, k); W.els.set(k, new WeakRef(el)); }
    return k;
  };
  const interactiveOnly = !!(opts && opts.interactive);
  const wantBoxes = !!(opts && opts.boxes);
  const nodes = [];
  const doc = document;
  const styles = new Map();
  const style = (el) => { let s = styles.get(el); if (!s) { s = getComputedStyle(el); styles.set(el, s); } return s; };
  // visibility is 'shown', 'none' (display: none: the subtree is gone) or
  // 'hidden' (visibility: hidden: children may still show). checkVisibility
  // answers the common case from layout, without building a style object.
  const seen = new Map();
  const boxless = new Set(['option', 'optgroup', 'area', 'slot']);
  const visibility = (el) => {
    let v = seen.get(el);
    if (v) return v;
    v = 'shown';
    if (!el.checkVisibility({ visibilityProperty: true })) {
      const s = style(el);
      if (s.visibility === 'hidden' || s.visibility === 'collapse') v = 'hidden';
      else if (s.display !== 'contents' && !boxless.has(el.localName)) v = 'none';
      // else no box of its own but still there: display: contents, an option
      // of a drop-down, an image map's area
    }
    seen.set(el, v);
    return v;
  };
  const collapse = (s) => s.replace(/[ \t\n\r\f\u00a0]+/g, ' ');
  const attr = (el, n) => el.getAttribute(n);

  // ---- roles (Chromium's names for them) ----
  const shadowCapable = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);
  // header, footer and aside are landmarks only outside sectioning content.
  const inSection = (el, scope) => el.parentElement && el.parentElement.closest(scope);
  const inputRole = (el) => {
    const t = (el.getAttribute('type') || 'text').toLowerCase();
    switch (t) {
      case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
      case 'checkbox': return 'checkbox';
      case 'radio': return 'radio';
      case 'range': return 'slider';
      case 'number': return 'spinbutton';
      case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
      case 'color': return 'ColorWell';
      case 'date': return 'Date';
      case 'datetime-local': case 'month': case 'week': return 'DateTime';
      case 'time': return 'InputTime';
      case 'hidden': return null;
      default: return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
  };
  const implicitRole = (el, tag) => {
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : 'generic';
      case 'button': return 'button';
      case 'input': return inputRole(el);
      case 'textarea': return 'textbox';
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'option': return el.closest('select') && !(el.closest('select').multiple || el.closest('select').size > 1) ? 'MenuListOption' : 'option';
      case 'optgroup': return 'group';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'p':
        // Chromium leaves out an empty paragraph (a parser's leftover),
        // unless an id lets something point at it.
        if (!el.firstChild && !el.id) return null;
        return style(el).display.startsWith('inline') ? 'generic' : 'paragraph';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'dl': return 'DescriptionList';
      case 'dt': return 'term';
      case 'dd': return 'definition';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'header': return inSection(el, 'article,aside,main,nav,section') ? 'sectionheader' : 'banner';
      case 'footer': return inSection(el, 'article,aside,main,nav,section') ? 'sectionfooter' : 'contentinfo';
      case 'aside': return inSection(el, 'article,aside,nav,section') && !attr(el, 'aria-label') && !attr(el, 'aria-labelledby') ? 'generic' : 'complementary';
      case 'section': return attr(el, 'aria-label') || attr(el, 'aria-labelledby') || attr(el, 'title') ? 'region' : 'generic';
      case 'form': return 'form';
      case 'search': return 'search';
      case 'article': return 'article';
      case 'table': return 'table';
      case 'caption': return 'caption';
      case 'thead': case 'tfoot': return 'rowgroup';
      case 'tr': return 'row';
      case 'td': return 'cell';
      case 'th': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'img': return el.getAttribute('alt') === '' ? 'none' : 'image';
      case 'svg': return 'image';
      case 'figure': return 'figure';
      case 'figcaption': return 'Figcaption';
      case 'blockquote': return 'blockquote';
      case 'code': return 'code';
      case 'strong': return 'strong';
      case 'em': return 'emphasis';
      case 'hr': return 'separator';
      case 'label': return 'LabelText';
      case 'legend': return 'Legend';
      case 'fieldset': case 'details': case 'hgroup': case 'address': return 'group';
      case 'summary': return 'DisclosureTriangle';
      case 'dialog': return 'dialog';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'output': return 'status';
      case 'iframe': case 'frame': return 'Iframe';
      case 'br': return 'LineBreak';
      case 'abbr': return 'Abbr';
      case 'mark': return 'mark';
      case 'time': return 'time';
      case 'sub': return 'subscript';
      case 'sup': return 'superscript';
      case 'del': case 's': return 'deletion';
      case 'ins': return 'insertion';
      case 'math': return 'math';
      case 'canvas': return 'Canvas';
      case 'video': return 'Video';
      case 'audio': return 'Audio';
      case 'pre': return 'generic';
      case 'dfn': return 'term';
      case 'ruby': return 'Ruby';
      default: return 'generic';
    }
  };
  // Abstract ARIA roles are not for pages: the element keeps its own.
  const abstractRoles = new Set(['command', 'composite', 'input', 'landmark', 'range', 'roletype', 'section', 'sectionhead', 'select', 'structure', 'widget', 'window']);
  const roleOf = (el, tag) => {
    const explicit = attr(el, 'role');
    if (explicit) {
      const r = explicit.trim().split(/\s+/)[0].toLowerCase();
      if (r === 'presentation' || r === 'none') return 'none';
      if (abstractRoles.has(r)) return implicitRole(el, tag);
      if ((r === 'region' || r === 'form') && !attr(el, 'aria-label') && !attr(el, 'aria-labelledby') && !attr(el, 'title')) return 'generic';
      if (r) return r === 'img' ? 'image' : r === 'directory' ? 'list' : r;
    }
    return implicitRole(el, tag);
  };

  // ---- names ----
  const fromContent = new Set(['button', 'cell', 'checkbox', 'columnheader', 'DisclosureTriangle', 'heading', 'link',
    'option', 'MenuListOption', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'radio', 'rowheader', 'switch', 'tab',
    'tooltip', 'treeitem', 'term', 'gridcell', 'math',
    'doc-backlink', 'doc-noteref', 'doc-biblioref', 'doc-glossref']);
  // Roles ARIA forbids naming, which Chromium does not name from a title.
  const noTitle = new Set(['paragraph', 'code', 'deletion', 'emphasis', 'insertion', 'strong', 'subscript', 'superscript', 'generic']);
  const controlValue = (el, role) => {
    const tag = el.localName;
    if (tag === 'select') {
      const o = el.selectedOptions[0];
      return o ? collapse(o.label || o.textContent).trim() : '';
    }
    if (tag === 'input' || tag === 'textarea') return el.value || '';
    if (role === 'textbox' || role === 'searchbox') return el.textContent || '';
    if (role === 'combobox' || role === 'slider' || role === 'spinbutton') return attr(el, 'aria-valuetext') || attr(el, 'aria-valuenow') || '';
    return null;
  };
  const isControl = (role) => role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'listbox' || role === 'slider' || role === 'spinbutton';
  const hiddenForName = (el) => visibility(el) !== 'shown' || attr(el, 'aria-hidden') === 'true';
  // Generated content costs a style resolution per element and side, so it
  // is looked for only when some style sheet could make it: a rule for
  // ::before or ::after in the document (or one it cannot read), or any
  // element in a shadow tree, whose sheets are its own.
  const pseudoRule = /:(before|after)\b/i;
  const sheetsGenerate = (sheets) => {
    for (const sh of sheets) {
      let rules;
      try { rules = sh.cssRules; } catch (e) { return true; }
      if (rulesGenerate(rules)) return true;
    }
    return false;
  };
  const rulesGenerate = (rules) => {
    for (const r of rules) {
      if (r.selectorText !== undefined && pseudoRule.test(r.selectorText)) return true;
      if (r.cssRules && rulesGenerate(r.cssRules)) return true;
    }
    return false;
  };
  let docGenerates;
  try { docGenerates = sheetsGenerate(doc.styleSheets) || sheetsGenerate(doc.adoptedStyleSheets || []); } catch (e) { docGenerates = true; }
  const pseudo = (el, which) => {
    if (!docGenerates && el.getRootNode() === doc) return '';
    const c = getComputedStyle(el, which).content;
    if (!c || c === 'none' || c === 'normal') return '';
    let out = '';
    const re = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g;
    let m;
    while ((m = re.exec(c))) out += (m[1] !== undefined ? m[1] : m[2]).replace(/\\(.)/g, '$1');
    return out;
  };
  const flatChildren = (n) => {
    if (n.nodeType === 1) {
      const root = n.shadowRoot || W.closed.get(n);
      if (root) return root.childNodes;
      if (n.localName === 'slot') {
        const a = n.assignedNodes({ flatten: true });
        return a.length ? a : n.childNodes;
      }
    }
    return n.childNodes;
  };
  // Chromium leaves containers of these roles out of a name taken from
  // content, unless they are labelled themselves (measured, not specified:
  // a <table> or <details> still counts, an explicit role=table does not).
  const contentStops = new Set(['article', 'banner', 'blockquote', 'complementary', 'contentinfo', 'dialog', 'alertdialog',
    'grid', 'log', 'main', 'marquee', 'menu', 'menubar', 'navigation', 'search', 'table', 'tablist', 'tabpanel', 'timer',
    'toolbar', 'tree', 'treegrid', 'alert', 'status', 'application', 'document', 'feed', 'group', 'figure', 'note', 'row',
    'radiogroup', 'separator']);
  const stopsContent = (c) => {
    const t = c.localName;
    if (t === 'details' || t === 'address' || t === 'table' || t === 'footer' || attr(c, 'aria-label') || attr(c, 'aria-labelledby')) return false;
    const r = roleOf(c, t);
    if (r === 'form' || r === 'image') return r === 'image' ? attr(c, 'role') !== null : !attr(c, 'role');
    return contentStops.has(r);
  };
  const inline = (el) => { const d = style(el).display; return d.startsWith('inline') || d === 'contents'; };
  const textOfContent = (el, visited, depth) => {
    let out = '';
    const add = (piece, block) => {
      if (!piece) return;
      out += block ? ' ' + piece + ' ' : piece;
    };
    add(pseudo(el, '::before'), false);
    for (const c of flatChildren(el)) {
      if (c.nodeType === 3) add(c.data, false);
      else if (c.nodeType === 1) {
        if (hiddenForName(c) || stopsContent(c)) continue;
        add(nameOf(c, visited, true, depth + 1), !inline(c));
      }
    }
    add(pseudo(el, '::after'), false);
    return out;
  };
  const labelsText = (el, visited, depth) => {
    const ls = el.labels;
    if (!ls || !ls.length) return '';
    return Array.from(ls, (l) => textOfContent(l, visited, depth)).join(' ');
  };
  // nameOf follows the accessible name computation: labelledby, aria-label,
  // the host language's labels, content (for roles named by it, or when
  // recursing), then the title.
  const nameOf = (el, visited, recursing, depth, knownRole) => {
    if (visited.has(el) || depth > 30) return '';
    visited.add(el);
    const tag = el.localName;
    const role = knownRole || roleOf(el, tag);
    if (!recursing && attr(el, 'aria-labelledby')) {
      const parts = [];
      for (const id of attr(el, 'aria-labelledby').trim().split(/\s+/)) {
        const r = el.getRootNode().getElementById ? el.getRootNode().getElementById(id) : doc.getElementById(id);
        if (r) parts.push(collapse(r === el ? (attr(el, 'aria-label') || textOfContent(r, new Set(), 0)) : nameOf(r, new Set([el]), true, 0)).trim());
      }
      const s = parts.filter(Boolean).join(' ');
      if (s.trim()) return s;
    }
    if (recursing && (isControl(role) || tag === 'input' || tag === 'select' || tag === 'textarea')) {
      // An embedded control contributes its value, not its own label.
      return isControl(role) ? controlValue(el, role) || '' : '';
    }
    const label = attr(el, 'aria-label');
    if (label && label.trim()) return label;
    if (role !== 'none') {
      if (tag === 'input') {
        const t = (attr(el, 'type') || 'text').toLowerCase();
        if (t === 'submit' || t === 'reset' || t === 'button') {
          const v = attr(el, 'value');
          if (v !== null && v !== '') return v;
          if (t === 'submit') return 'Submit';
          if (t === 'reset') return 'Reset';
        } else if (t === 'image') {
          const a = attr(el, 'alt');
          if (a) return a;
          const v = attr(el, 'value');
          if (v) return v;
          return 'Submit';
        }
        const l = labelsText(el, visited, depth);
        if (l.trim()) return l;
        const ti = attr(el, 'title');
        if (ti && ti.trim()) return ti;
        const ph = attr(el, 'placeholder') || attr(el, 'aria-placeholder');
        if (ph && ph.trim()) return ph;
        return '';
      }
      if (tag === 'textarea' || tag === 'select' || tag === 'meter' || tag === 'progress' || tag === 'output' || tag === 'button') {
        const l = labelsText(el, visited, depth);
        if (l.trim()) return l;
        if (tag === 'textarea') {
          const ti = attr(el, 'title') || attr(el, 'placeholder') || attr(el, 'aria-placeholder');
          if (ti && ti.trim()) return ti;
          return '';
        }
      }
      if (tag === 'img' || tag === 'area') {
        const a = attr(el, 'alt');
        if (a) return a;
      }
      if (tag === 'fieldset') {
        const lg = Array.from(el.children).find((c) => c.localName === 'legend');
        if (lg) { const s = textOfContent(lg, visited, depth); if (s.trim()) return s; }
      }
      if (tag === 'optgroup') {
        const l = attr(el, 'label');
        if (l && l.trim()) return l;
      }
      if (tag === 'table') {
        const cap = el.caption;
        if (cap) { const s = textOfContent(cap, visited, depth); if (s.trim()) return s; }
      }
      if (tag === 'svg') {
        const t = Array.from(el.children).find((c) => c.localName === 'title');
        if (t && t.textContent.trim()) return t.textContent;
      }
    }
    let blank = '';
    if (recursing || fromContent.has(role)) {
      const s = textOfContent(el, visited, depth);
      if (s.trim()) return s;
      blank = s; // whitespace still separates the words around it
    }
    const ti = noTitle.has(role) ? null : attr(el, 'title');
    if (ti && ti.trim()) return ti;
    return recursing ? blank : '';
  };

  // ---- states ----
  const boolAttr = (el, n) => { const v = attr(el, n); return v !== null && v !== 'false' && v !== 'undefined' ? (v === '' ? 'true' : v) : null; };
  // Chromium reports focus only while the page itself has it.
  const focused = doc.hasFocus() && doc.activeElement !== doc.body ? deepActive() : null;
  function deepActive() {
    let a = doc.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }
  const checkable = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
  const propsOf = (el, tag, role) => {
    const p = [];
    if (role === 'heading') {
      const lv = parseInt(attr(el, 'aria-level'), 10);
      p.push(['level', String(lv > 0 ? lv : /^h[1-6]$/.test(tag) ? +tag[1] : 2)]);
    } else if (attr(el, 'aria-level') && (role === 'treeitem' || role === 'listitem' || role === 'row')) {
      p.push(['level', attr(el, 'aria-level')]);
    } else if (role === 'listitem') {
      // Chromium counts the lists a list item is nested in.
      let lv = 0;
      for (let a = el.parentElement; a; a = a.parentElement) {
        const r = attr(a, 'role');
        if (r ? r === 'list' : a.localName === 'ul' || a.localName === 'ol' || a.localName === 'menu') lv++;
      }
      p.push(['level', String(Math.max(lv, 1))]);
    }
    if (checkable.has(role)) {
      let c = null;
      if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) c = el.indeterminate ? 'mixed' : el.checked ? 'true' : null;
      else c = boolAttr(el, 'aria-checked');
      if (c) p.push(['checked', c]);
    }
    const pressed = boolAttr(el, 'aria-pressed');
    if (pressed && (role === 'button')) p.push(['pressed', pressed]);
    if (tag === 'option') { if (el.selected) p.push(['selected', 'true']); }
    else { const s = boolAttr(el, 'aria-selected'); if (s) p.push(['selected', s]); }
    const ex = boolAttr(el, 'aria-expanded');
    if (ex === 'true') p.push(['expanded', 'true']);
    else if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details' && el.parentElement.open) p.push(['expanded', 'true']);
    if ((el.matches && el.matches(':disabled')) || el.closest('[aria-disabled=true]')) p.push(['disabled', 'true']);
    if (el.required || attr(el, 'aria-required') === 'true') p.push(['required', 'true']);
    if (((tag === 'input' || tag === 'textarea') && el.readOnly && role !== 'button' && !checkable.has(role)) || attr(el, 'aria-readonly') === 'true') p.push(['readonly', 'true']);
    const inv = attr(el, 'aria-invalid');
    if (inv && inv !== 'false') p.push(['invalid', inv === '' ? 'true' : inv]);
    if (el === focused) p.push(['focused', 'true']);
    return p.length ? p : 0;
  };
  const valueOf = (el, tag, role) => {
    switch (role) {
      case 'textbox': case 'searchbox': case 'combobox': case 'slider': case 'spinbutton': case 'ColorWell': case 'Date': case 'DateTime': case 'InputTime': {
        if (tag === 'input' && el.type === 'password') return el.value ? '•'.repeat(el.value.length) : '';
        const v = controlValue(el, role);
        return v || '';
      }
      case 'button':
        if (tag === 'input' && el.type === 'file') return el.files && el.files.length ? Array.from(el.files, (f) => f.name).join(', ') : 'No file chosen';
        return '';
      case 'progressbar': case 'meter':
        return tag === 'progress' || tag === 'meter' ? (tag === 'progress' && el.position < 0 ? '' : String(el.value)) : attr(el, 'aria-valuenow') || '';
    }
    return '';
  };

  // ---- the walk ----
  const interactiveRoles = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox',
    'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'slider', 'spinbutton', 'switch', 'tab', 'treeitem',
    'MenuListOption', 'Date', 'DateTime', 'InputTime', 'ColorWell', 'Iframe']);
  const skipTags = new Set(['script', 'style', 'template', 'head', 'title', 'meta', 'link', 'noscript', 'col', 'colgroup', 'param', 'source', 'track', 'datalist']);
  const clean = (s) => (s.indexOf('\x1e') < 0 && s.indexOf('\x1f') < 0 ? s : s.replace(/[\x1e\x1f]/g, ' '));
  const push = (parent, role, name, value, key, props, url, box) => {
    nodes.push(parent + '\x1f' + role + '\x1f' + clean(name) + '\x1f' + clean(value) + '\x1f' + key + '\x1f' +
      (props ? props.map((p) => p[0] + '=' + p[1]).join(',') : '') + '\x1f' + clean(url) + '\x1f' + box);
    return nodes.length - 1;
  };
  const boxOf = (el) => {
    if (!wantBoxes) return '';
    const r = el.getBoundingClientRect();
    return r.x + ',' + r.y + ',' + r.width + ',' + r.height;
  };
  // visible: the element's computed visibility lets text show; hiddenTree: an
  // aria-hidden or inert ancestor hides everything below.
  const walk = (n, parent) => {
    const generated = !interactiveOnly && n.nodeType === 1;
    if (generated) { const b = pseudo(n, '::before'); if (b.trim()) push(parent, 'StaticText', collapse(b), '', 0, 0, '', ''); }
    walkChildren(n, parent);
    if (generated) { const a = pseudo(n, '::after'); if (a.trim()) push(parent, 'StaticText', collapse(a), '', 0, 0, '', ''); }
  };
  const walkChildren = (n, parent) => {
    const kids = flatChildren(n);
    for (let i = 0, len = kids.length; i < len; i++) {
      const c = kids[i];
      if (c.nodeType === 3) {
        if (interactiveOnly) continue;
        const pel = c.parentElement || n;
        if (pel.nodeType === 1 && visibility(pel) !== 'shown') continue;
        const t = collapse(c.data);
        if (t.trim()) push(parent, 'StaticText', t, '', 0, 0, '', '');
        continue;
      }
      if (c.nodeType !== 1) continue;
      element(c, parent);
    }
  };
  const hasArea = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  let widgets = 0;
  const bullets = { disc: '•', circle: '◦', square: '▪' };
  const element = (el, parent) => {
    const tag = el.localName;
    if (skipTags.has(tag)) return;
    const shown = visibility(el);
    if (shown === 'none') return;
    if ((tag === 'video' || tag === 'audio') && el.controls) widgets++;
    if (attr(el, 'aria-hidden') === 'true' || el.hasAttribute('inert')) return;
    // A host whose root the walker cannot see: a custom element, or an
    // empty element that still takes up room (a closed root's content
    // gives its host a size; empty anchors and spacers have none).
    if (!el.shadowRoot && !W.checked.has(el) && (tag.includes('-') || (shadowCapable.has(tag) && !el.firstChild && hasArea(el)))) {
      W.checked.add(el);
      hosts++;
    }
    if (shown === 'hidden') {
      walk(el, parent);
      return;
    }
    let role = roleOf(el, tag);
    if (role === null) return;
    if (tag === 'slot') { walk(el, parent); return; }
    if (interactiveOnly && !interactiveRoles.has(role)) {
      if (role !== 'Iframe') { walk(el, parent); return; }
    }
    if (role === 'generic' || role === 'none') {
      if (role === 'generic' && style(el).display === 'table') role = 'LayoutTable';
      // Unnamed structure: its children move up, as the renderer would do.
      const name = role === 'generic' ? attr(el, 'aria-label') || '' : role === 'LayoutTable' ? 'x' : '';
      if (!name.trim() || interactiveOnly) { walk(el, parent); return; }
    }
    const name = collapse(nameOf(el, new Set(), false, 0, role)).trim();
    const key = keyOf(el);
    const value = collapse(valueOf(el, tag, role));
    const url = role === 'link' && el.href ? String(el.href.baseVal !== undefined ? el.href.baseVal : el.href) : '';
    // An editable region's text is its value, as Chromium reports it.
    const editable = el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
    const shownValue = editable && role === 'generic' ? collapse(el.textContent).trim() : value;
    const me = push(parent, role, name, shownValue, key, propsOf(el, tag, role), url, boxOf(el));
    // An iframe's document is walked on its own; fallback content of a
    // progress bar or meter is not rendered.
    if (role === 'Iframe' || tag === 'progress' || tag === 'meter') return;
    if (!interactiveOnly) {
      // Chromium's own children: an image button's image, and the bullet of
      // a list item given another role (a listitem's marker is not shown).
      if (tag === 'input' && el.type === 'image') push(me, 'image', '', '', 0, 0, '', '');
      if (tag === 'li' && role !== 'listitem') {
        const bullet = bullets[style(el).listStyleType];
        if (bullet && style(el).display === 'list-item') push(me, 'StaticText', bullet, '', 0, 0, '', '');
      }
    }
    walk(el, me);
  };
  const root = push(-1, 'RootWebArea', collapse(doc.title).trim(), '', 0, 0, '', '');
  let found = 1;
  if (scope) {
    // -s: the element and what it holds; a rendered ancestor chain is what
    // puts it in the tree at all.
    for (let a = scope; a && a.nodeType === 1; a = a.parentElement || (a.getRootNode().host || null)) {
      if (visibility(a) === 'none') { found = 0; break; }
    }
    if (found) element(scope, root);
  } else if (doc.documentElement) walk(doc.documentElement, root);
  return hosts + ' ' + innerWidth + ' ' + innerHeight + ' ' + widgets + ' ' + found + '\x1e' + nodes.join('\x1e');
}
