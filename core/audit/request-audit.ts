// One request's audit event, as upstream's WithAudit and WithFailedAuthenticationAudit build it:
// the policy's level for the request decides whether there is one; the event is handed to the
// `audit` hook at RequestReceived (before authorization), at ResponseStarted for a long-running
// request (when its headers go out), and at ResponseComplete once the answer has been written;
// a request that fails authentication gets one event, at ResponseStarted; one that panics (an
// unexpected throw, core/server/panic.ts) a Panic event in place of ResponseComplete. The server's code calls
// the functions here at the points upstream's handlers call package audit; they do nothing for a
// request that is not audited.
import type { Context } from 'koa';
import type { ServerResponse } from 'node:http';
import type { UserInfo } from '../authn/user.js';
import type { Logger } from '../log.js';
import { levelAtLeast, sortedAnnotations, type AuditEvent, type AuditLevel, type AuditResponseStatus, type AuditStage, type AuditUser, type AuditObjectRef } from './event.js';
import type { AuditAttributes, PolicyEvaluator, RequestAuditConfig } from './policy.js';
import { microTime, preciseNow } from './time.js';
import { sourceIps } from './source-ips.js';
import type { AuditMetrics } from '../metrics/apiserver-audit.js';
import { thrownMessage } from '../thrown-message.js';
import { goQuote } from '../go-quote.js';
import { beforeHead } from '../server/response-head.js';

/** The policy and the backends' hook: given to the server only when both exist (upstream's sink and policy). */
export interface AuditSink {
  readonly policy: PolicyEvaluator;
  /** The `audit` hook's call: resolves when every backend took the event, rejects when one failed. */
  readonly process: (event: AuditEvent) => Promise<void>;
  readonly logger: Logger;
  /** The apiserver_audit_* families, when the server serves /metrics. */
  readonly metrics?: AuditMetrics;
}

const MAX_USER_AGENT = 1024;
/** authorization.k8s.io's annotations, renamed. */
export const DECISION_ANNOTATION = 'authorization.platform/decision';
export const REASON_ANNOTATION = 'authorization.platform/reason';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const EVENT_FIELDS = ['level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'impersonatedUser', 'sourceIPs', 'userAgent', 'objectRef',
  'responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations'] as const satisfies readonly (keyof AuditEvent)[];

/**
 * What upstream's encodeObject makes of an object when it is logged: its JSON then, kind and
 * apiVersion first (TypeMeta), so that what the request does to it later does not show.
 */
function encoded(obj: unknown, omitManagedFields: boolean): unknown {
  const copy = JSON.parse(JSON.stringify(omitManagedFields ? dropManagedFields(obj) : obj)) as unknown;
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) return copy;
  const { kind, apiVersion, ...rest } = copy as Record<string, unknown>;
  return { ...(kind !== undefined ? { kind } : {}), ...(apiVersion !== undefined ? { apiVersion } : {}), ...rest };
}

/** What a request carries for the audit: its ID always, its event when the policy audits it. */
export interface AuditState {
  auditID: string;
  received: number;
  request?: RequestAudit;
  /** Annotations the authenticators gave before the event existed (AuthenticationRequest.annotate). */
  pendingAnnotations?: [key: string, value: string][];
}

/** The request's audit event, if it is audited (for the handlers that log objects into it). */
export const requestAuditOf = (ctx: Context): RequestAudit | undefined => (ctx.state as { audit?: AuditState }).audit?.request;

const userOf = (u: UserInfo): AuditUser => ({
  username: u.name,
  ...(u.uid ? { uid: u.uid } : {}),
  ...(u.groups.length ? { groups: [...u.groups] } : {}),
  ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}),
});

function dropManagedFields(obj: unknown): unknown {
  if (typeof obj !== 'object' || obj === null) return obj;
  const o = obj as { metadata?: { managedFields?: unknown }; items?: unknown[] };
  let out: Record<string, unknown> = o as Record<string, unknown>;
  if (o.metadata && typeof o.metadata === 'object' && 'managedFields' in o.metadata) {
    const { managedFields: _dropped, ...metadata } = o.metadata;
    out = { ...out, metadata };
  }
  if (Array.isArray(o.items)) out = { ...out, items: o.items.map(dropManagedFields) };
  return out;
}

export class RequestAudit {
  readonly event: Mutable<AuditEvent>;
  private started = false;
  /** Its Panic event is out: the answer and the connection's end are no stage of it any more. */
  private panicked = false;

  constructor(readonly sink: AuditSink, readonly config: RequestAuditConfig, event: Mutable<AuditEvent>) {
    this.event = event;
  }

  get level(): AuditLevel { return this.config.level; }

  /** processAuditEvent: an omitted stage counts as processed; false when a backend failed. */
  async emit(stage: AuditStage): Promise<boolean> {
    if (this.config.omitStages.includes(stage)) return true;
    this.sink.metrics?.event();
    const ev = this.event;
    ev.stage = stage;
    ev.stageTimestamp = stage === 'RequestReceived' ? ev.requestReceivedTimestamp : microTime(preciseNow());
    // A snapshot, in the Event's field order: the request goes on changing its event while a
    // backend may still hold this one.
    const snapshot = {} as Mutable<AuditEvent>;
    for (const k of EVENT_FIELDS) if (ev[k] !== undefined) (snapshot as Record<string, unknown>)[k] = ev[k];
    if (ev.annotations) snapshot.annotations = sortedAnnotations(ev.annotations);
    if (ev.responseStatus) snapshot.responseStatus = { ...ev.responseStatus };
    try {
      await this.sink.process(snapshot);
      return true;
    } catch (e) {
      this.sink.logger.error('Error in audit backend', { auditID: ev.auditID, stage, err: e instanceof Error ? e.message : String(e) });
      return false;
    }
  }

  /** AddAuditAnnotation: a key keeps its first value (another is logged and dropped). */
  addAnnotation(key: string, value: string): void {
    const annotations = ((this.event.annotations as Record<string, string> | undefined) ??= {});
    const had = annotations[key];
    if (had !== undefined && had !== value) {
      this.sink.logger.warn(`Failed to set annotations[${goQuote(key)}] to ${goQuote(value)} for audit:${goQuote(this.event.auditID)}, it has already been set to ${goQuote(had)}`);
      return;
    }
    annotations[key] = value;
  }

  /** WithAudit's recover: the Panic event, with the 500 the recovery filter answers; no stage after it. */
  async panic(thrown: unknown): Promise<void> {
    this.panicked = true;
    this.started = true;
    this.event.responseStatus = { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${thrownMessage(thrown)}`, reason: 'InternalError', code: 500 };
    await this.emit('Panic');
  }

  get hasPanicked(): boolean { return this.panicked; }

  /** Its ResponseComplete is out (complete): the connection's end adds nothing. */
  private completed = false;
  get hasCompleted(): boolean { return this.completed; }

  /** WithAudit returns before its deferred event when RequestReceived was refused: no ResponseComplete. */
  refused(): void { this.completed = true; }

  /**
   * WithAudit's deferred ResponseComplete for an answer not yet sent: upstream processes it when
   * the handler returns, before net/http flushes a response that fits its buffer, so a client
   * that has its answer knows the event went to the backends (a blocking log, written). `code` is
   * the answer's status.
   */
  async complete(code: number): Promise<void> {
    if (this.panicked || this.completed) return;
    this.completed = true;
    this.responseCode(code, false);
    await this.emit('ResponseComplete');
  }

  logImpersonatedUser(user: UserInfo): void {
    this.event.impersonatedUser = userOf(user);
  }

  /** LogRequestObject: the object's name and namespace complete the reference; the object itself from Request on. */
  logRequestObject(obj: unknown): void {
    const meta = (obj as { metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string } } | undefined)?.metadata;
    const ref: Mutable<AuditObjectRef> = { ...this.event.objectRef };
    if (meta) {
      if (!ref.namespace && meta.namespace) ref.namespace = meta.namespace;
      if (!ref.name && meta.name) ref.name = meta.name;
      if (!ref.uid && meta.uid) ref.uid = meta.uid;
      if (!ref.resourceVersion && meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
    }
    this.event.objectRef = orderedRef(ref);
    if (levelAtLeast(this.level, 'Request')) this.event.requestObject = encoded(obj, this.config.omitManagedFields);
  }

  /** LogRequestPatch: the patch as sent. */
  logRequestPatch(patch: unknown): void {
    if (levelAtLeast(this.level, 'Request')) this.event.requestObject = patch;
  }

  /** LogResponseObject: a Status answer's fields become responseStatus; the object itself at RequestResponse. */
  logResponseObject(obj: unknown): void {
    const o = obj as { kind?: string; apiVersion?: string; status?: string; message?: string; reason?: string; details?: unknown; code?: number } | undefined;
    if (o && o.kind === 'Status' && (o.apiVersion === 'v1' || o.apiVersion === undefined)) {
      this.event.responseStatus = {
        metadata: {},
        ...(o.status ? { status: o.status } : {}),
        ...(o.message ? { message: o.message } : {}),
        ...(o.reason ? { reason: o.reason } : {}),
        ...(o.details !== undefined ? { details: o.details } : {}),
        ...(o.code ? { code: o.code } : {}),
      };
    }
    if (levelAtLeast(this.level, 'RequestResponse')) this.event.responseObject = encoded(obj, this.config.omitManagedFields);
  }

  /** processCode: the answer's code; a long-running request's ResponseStarted goes out here. */
  responseCode(code: number, emitStarted: boolean): void {
    if (this.started) return;
    this.started = true;
    this.event.responseStatus = { ...(this.event.responseStatus ?? { metadata: {} }), code } as AuditResponseStatus;
    this.event.stage = 'ResponseStarted';
    if (emitStarted) void this.emit('ResponseStarted');
  }
}

function orderedRef(r: AuditObjectRef): AuditObjectRef {
  // The wire order of ObjectReference; empty fields omitted.
  const out: Mutable<AuditObjectRef> = {};
  for (const k of ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'] as const) if (r[k]) out[k] = r[k];
  return out;
}

export interface AuditedRequest {
  readonly ctx: Context;
  readonly state: AuditState;
  readonly verb: string;
  readonly attributes: AuditAttributes & { readonly apiVersion: string };
  readonly user?: UserInfo;
}

/** evaluatePolicyAndCreateAuditEvent + LogRequestMetadata: the event, or undefined when the level is None. */
export function createAudit(sink: AuditSink, r: AuditedRequest): RequestAudit | undefined {
  const config = sink.policy.evaluate(r.attributes);
  sink.metrics?.level(config.level);
  if (config.level === 'None') return undefined;
  const a = r.attributes;
  let ua = r.ctx.get('user-agent');
  if (ua.length > MAX_USER_AGENT) ua = `${ua.slice(0, MAX_USER_AGENT)}...TRUNCATED`;
  const received = microTime(r.state.received);
  const ips = sourceIps(r.ctx.req);
  const event: Mutable<AuditEvent> = {
    level: config.level,
    auditID: r.state.auditID,
    stage: 'RequestReceived',
    requestURI: r.ctx.originalUrl,
    verb: r.verb,
    user: r.user ? userOf(r.user) : {},
    // omitempty: a request of this process's own in-process connection has no address.
    ...(ips.length ? { sourceIPs: ips } : {}),
    ...(ua ? { userAgent: ua } : {}),
    ...(a.isResourceRequest ? { objectRef: orderedRef({ namespace: a.namespace, name: a.name, resource: a.resource, subresource: a.subresource, apiGroup: a.apiGroup, apiVersion: a.apiVersion }) } : {}),
    requestReceivedTimestamp: received,
    stageTimestamp: received,
  };
  const audit = new RequestAudit(sink, config, event);
  for (const [k, v] of r.state.pendingAnnotations ?? []) audit.addAnnotation(k, v);
  return audit;
}

/** The status written is the event's code. */
function watchCode(res: ServerResponse, audit: RequestAudit, emitStarted: boolean): void {
  beforeHead(res, (status) => audit.responseCode(status, emitStarted));
}

/**
 * WithAudit: RequestReceived now (false when a backend failed it: the caller answers 500 in
 * blocking-strict mode), ResponseStarted when a long-running request's headers go out, and
 * ResponseComplete before the answer is written (RequestAudit.complete), also when the client has
 * gone by then, or, for an answer that streams (a watch), once the response has ended.
 */
export async function beginAudit(audit: RequestAudit, ctx: Context, longRunning: boolean): Promise<boolean> {
  if (!(await audit.emit('RequestReceived'))) {
    audit.refused();
    audit.sink.metrics?.rejected();
    return false;
  }
  watchCode(ctx.res as ServerResponse, audit, longRunning);
  ctx.res.once('close', () => {
    if (audit.hasPanicked || audit.hasCompleted) return;
    // A client gone before its answer: upstream's deferred event still waits for the handler to
    // return, with the status it answered (complete); only an answer already on its way (a watch's,
    // one written past the handler) is completed here.
    if (!longRunning && !ctx.res.headersSent) return;
    const ev = audit.event;
    const faked: AuditResponseStatus = { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 };
    if (!ev.responseStatus && longRunning) {
      ev.responseStatus = faked;
      void audit.emit('ResponseStarted');
    }
    ev.responseStatus ??= faked;
    void audit.emit('ResponseComplete');
  });
  return true;
}

/** getAuthMethods: which credentials the failed request carried. */
function authMethods(ctx: Context): string {
  const methods: string[] = [];
  const auth = ctx.get('authorization').trim();
  if (/^basic /i.test(auth)) methods.push('basic');
  const parts = auth.split(' ');
  if (parts.length > 1 && parts[0]!.toLowerCase() === 'bearer') methods.push('bearer');
  if ((new URLSearchParams(ctx.querystring).get('access_token') ?? '').trim()) methods.push('access_token');
  const sock = ctx.req.socket as { getPeerCertificate?: (d?: boolean) => { raw?: Buffer } | undefined };
  if (typeof sock.getPeerCertificate === 'function' && sock.getPeerCertificate()?.raw) methods.push('x509');
  return methods.length ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

/** WithFailedAuthenticationAudit: one event, at ResponseStarted, when the 401 goes out. */
export function auditFailedAuthentication(audit: RequestAudit, ctx: Context): void {
  audit.event.responseStatus = { metadata: {}, message: authMethods(ctx) };
  audit.event.stage = 'ResponseStarted';
  watchCode(ctx.res as ServerResponse, audit, true);
}
