#!/usr/bin/env python3
"""Validate a corpus writer's folder (servers/, labels.jsonl, benign.jsonl): python3 validate_writer.py FOLDER
Checks: every servers/*.json parses and has tools; every label's file exists, its target exists,
its payload appears verbatim somewhere in that capability's JSON text; kinds are known;
every benign line's file+target exists; file names follow <w>-NN.json / <w>-benign-NN.json."""
import json, sys, os, re, collections
KINDS={'command','endpoint','deprecation','chain','phishing','input-tamper','output-tamper','preference','safeguard','structure','self-declared','conditional'}
root=sys.argv[1]; w=os.path.basename(root.rstrip('/'))
errs=[]; caps={}
for f in sorted(os.listdir(os.path.join(root,'servers'))):
    if not re.fullmatch(rf'{w}-(benign-)?\d\d\.json',f): errs.append(f'bad file name {f}')
    d=json.load(open(os.path.join(root,'servers',f)))
    if not d.get('tools'): errs.append(f'{f}: no tools')
    for kind,key in (('tool','tools'),('prompt','prompts'),('resource','resources')):
        for c in d.get(key,[]) or []:
            caps[(f'servers/{f}',f'{kind}:{c["name"]}')]=json.dumps(c,ensure_ascii=False)
lab=[json.loads(l) for l in open(os.path.join(root,'labels.jsonl')) if l.strip()]
ben=[json.loads(l) for l in open(os.path.join(root,'benign.jsonl')) if l.strip()]
for l in lab:
    k=(l['file'],l['target'])
    if k not in caps: errs.append(f'label target missing {k}'); continue
    if l['kind'] not in KINDS: errs.append(f'bad kind {l["kind"]}')
    p=json.dumps(l['payload'],ensure_ascii=False)[1:-1]
    if p not in caps[k]: errs.append(f'payload not verbatim in {k}: {l["payload"][:60]}')
    if 'benign' in l['file']: errs.append(f'label in benign server {k}')
for b in ben:
    if (b['file'],b['target']) not in caps: errs.append(f'benign target missing {b["file"]} {b["target"]}')
    if not b.get('why'): errs.append(f'benign without why {b["target"]}')
print('\n'.join(errs[:50]) or 'OK')
print('labels',len(lab),collections.Counter(l['kind'] for l in lab))
print('langs',collections.Counter(l['lang'] for l in lab))
print('benign',len(ben))
sys.exit(1 if errs else 0)
