import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/app/';

/** The page's location: the path below /app/ and its query parameters (every page is a bookmarkable URL). */
export type Route = { page: string; params: URLSearchParams };

function current(): Route {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '';
  return { page: path.replace(/\/$/, ''), params: new URLSearchParams(location.search) };
}

/** A dashboard URL for a page and its parameters (empty ones left out). */
export function href(page: string, params: Record<string, string | number | null | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `${BASE}${page}${s ? `?${s}` : ''}`;
}

export function navigate(url: string, replace = false): void {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.dispatchEvent(new Event('locationchange'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    window.addEventListener('popstate', update);
    window.addEventListener('locationchange', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('locationchange', update);
    };
  }, []);
  return route;
}

/** A real link (keyboard, middle-click, copy address) that moves within the page without a reload. */
export function Link(props: { to: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' | undefined }) {
  return (
    <a
      href={props.to}
      class={props.class}
      aria-current={props['aria-current']}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}
