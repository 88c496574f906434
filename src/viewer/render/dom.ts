/**
 * The one way the viewer builds DOM. Every string becomes a text node, never
 * markup: model and tool text (`<img src=x onerror=…>` included) is shown as
 * the characters it is. Attributes are set one by one, and styles only
 * through the CSSOM, which a strict Content-Security-Policy allows.
 * @module
 */

/** What {@link h} accepts as children: text, nodes, nothing, or lists of them. */
export type Child = string | number | Node | null | undefined | false | readonly Child[];

/** Properties of {@link h}: a class, attributes, listeners. */
export interface Props {
  class?: string;
  /** Attributes, set with `setAttribute`; `false` and `undefined` leave one out. */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: Partial<Record<keyof HTMLElementEventMap, (event: Event) => void>>;
}

/** An element with `props` and `children`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props?.class) el.className = props.class;
  for (const [name, value] of Object.entries(props?.attrs ?? {})) {
    if (value === false || value === undefined) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [type, listener] of Object.entries(props?.on ?? {})) {
    if (listener) el.addEventListener(type, listener);
  }
  append(el, children);
  return el;
}

/** Appends children, strings as text nodes. */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (typeof child === 'string' || typeof child === 'number')
      parent.appendChild(document.createTextNode(String(child)));
    else parent.appendChild(child as Node);
  }
}

/** Replaces the children of `parent`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** What a {@link details} shows: its `key` in the open set, its summary, and its body, built only once opened. */
export interface Disclosure {
  key: string;
  summary: Child;
  body: () => Child;
}

/** A `<details>` whose open state survives re-renders: `open` holds the keys of the open ones. */
export function details(open: Set<string>, disclosure: Disclosure, props: Props = {}): HTMLDetailsElement {
  const { key, summary, body } = disclosure;
  const el = h(
    'details',
    { ...props, attrs: { ...props.attrs, open: open.has(key) } },
    h('summary', null, summary),
  );
  if (open.has(key)) append(el, [body()]);
  el.addEventListener('toggle', () => {
    if (el.open) {
      open.add(key);
      if (el.children.length === 1) append(el, [body()]);
    } else {
      open.delete(key);
    }
  });
  return el;
}
