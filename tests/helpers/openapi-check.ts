// Checks real responses against the OpenAPI document, as a validating proxy would: the path and
// method are documented, the status is one the operation lists, the content type one it lists for
// that status (no body where it lists none), and the body valid against its schema (Ajv, draft 2020-12).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked by key, whatever each value's shape
type Json = Record<string, any>;

/** One response as received. */
export interface Observed {
  method: string;
  /** Path and query as requested. */
  target: string;
  status: number;
  /** The Content-Type header, or '' when none. */
  contentType: string;
  body: string;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

export class ContractChecker {
  private readonly doc: Json;
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ template: string; pattern: RegExp }>;

  constructor(doc: Json) {
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(this.ajv);
    this.ajv.addSchema({ ...doc, $id: 'openapi' });
    // Literal paths before templated ones, so /api/rtp/list is not read as /api/rtp/{slug}.
    this.templates = Object.keys(doc.paths as Json)
      .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`) }))
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  /** The documented path template of a request target, or undefined. */
  templateOf(target: string): string | undefined {
    const pathname = target.split('?')[0]!;
    return this.templates.find((t) => t.pattern.test(pathname))?.template;
  }

  /** What is wrong with a response against the document: one line per violation, none when it conforms. */
  violations(observed: Observed): string[] {
    const where = `${observed.method} ${observed.target.slice(0, 120)} → ${observed.status}`;
    const template = this.templateOf(observed.target);
    if (template === undefined) return [`${where}: path not documented`];
    const method = observed.method.toLowerCase();
    // The methods a path does not take are answered 405, documented on the operation it has.
    const opMethod = (this.doc.paths[template] as Json)[method] !== undefined ? method : Object.keys(this.doc.paths[template] as Json)[0]!;
    const responses = (this.doc.paths[template] as Json)[opMethod].responses as Json;
    const status = String(observed.status);
    let response = responses[status] as Json | undefined;
    let at = ['paths', template, opMethod, 'responses', status];
    if (response === undefined) return [`${where}: status ${status} not documented`];
    if (typeof response.$ref === 'string') {
      const name = (response.$ref as string).split('/').pop()!;
      response = this.doc.components.responses[name] as Json;
      at = ['components', 'responses', name];
    }
    const content = response.content as Json | undefined;
    if (content === undefined) return observed.body === '' ? [] : [`${where}: a body where the document lists none`];
    const type = observed.contentType.split(';')[0]!.trim().toLowerCase();
    if (content[type] === undefined) return [`${where}: content type "${observed.contentType}" not documented (${Object.keys(content).join(', ')})`];
    const key = `openapi#/${pointer(...at, 'content', type, 'schema')}`;
    let validate = this.validators.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: key });
      this.validators.set(key, validate);
    }
    let value: unknown = observed.body;
    if (type === 'application/json') {
      try {
        value = JSON.parse(observed.body);
      } catch {
        return [`${where}: body is not JSON`];
      }
    }
    if (validate(value)) return [];
    return [`${where}: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`];
  }
}
