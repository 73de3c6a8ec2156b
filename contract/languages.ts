import { z } from 'zod';

/** The languages of the service: content, names, search and ask (ISO 639-1). The one list. */
export const LANGS = ['en', 'fr', 'de', 'es'] as const;
export const Lang = z.enum(LANGS).describe('Language (ISO 639-1)');
export type Lang = z.infer<typeof Lang>;

/** Each language's name in itself (language switches, feed titles). */
export const LANG_LABEL: Readonly<Record<Lang, string>> = { en: 'English', fr: 'Français', de: 'Deutsch', es: 'Español' };
/** Each language's name in English (instructions to a model, prompt arguments). */
export const LANG_NAME_EN: Readonly<Record<Lang, string>> = { en: 'English', fr: 'French', de: 'German', es: 'Spanish' };
/** The locale numbers and dates are written in, per language. */
export const LOCALES: Readonly<Record<Lang, string>> = { en: 'en-GB', fr: 'fr-FR', de: 'de-DE', es: 'es-ES' };

/** "en, fr, de or es" (`conjunction` between the last two), of every language or of `langs`. */
export const langList = (conjunction = 'or', langs: readonly Lang[] = LANGS) => `${langs.slice(0, -1).join(', ')} ${conjunction} ${langs.at(-1)}`;

/** An object with one value per language, each of schema `t`. */
export const byLang = <T extends z.ZodType>(t: T) => z.strictObject(Object.fromEntries(LANGS.map((l) => [l, t])) as Record<Lang, T>);
