/** The current language from the URL prefix, and a Link that keeps it. */
import { createContext, useContext, type ComponentProps } from 'react';
import { Link, NavLink } from 'react-router';
import { localizedPath } from '../shared/domain/links.js';
import type { Language } from '../shared/domain/locale.js';

export const LangContext = createContext<Language>('en');
export const useLang = () => useContext(LangContext);

/** `to` is a language-free site path ("/pricing/?source=…"). */
export function L({ to, ...rest }: Omit<ComponentProps<typeof Link>, 'to'> & { to: string }) {
  const lng = useLang();
  return <Link to={localizedPath(to, lng)} {...rest} />;
}

export function NL({ to, ...rest }: Omit<ComponentProps<typeof NavLink>, 'to'> & { to: string }) {
  const lng = useLang();
  return <NavLink to={localizedPath(to, lng)} {...rest} />;
}
