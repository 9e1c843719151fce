"""
Trains our nets from recipe files (scripts/train/recipes/*.json), one process per recipe, each fed by
DataLoader workers of its own; on CUDA with bf16 autocast, channels-last and cudnn benchmark; on the
CPU too (slowly). README.md beside this file has the commands, the GPU run and the recipe format.

  train.py --recipe recipes/NAME.json [--steps N | --seconds S] --out DIR [--photos-root DIR] [--init FILE.onnx]
  train.py --resume DIR/FILE.ckpt [--steps N | --seconds S] --out DIR
  train.py --batch R1.json R2.json ... [--steps N | --seconds S] --out DIR

Writes DIR/<file>.onnx (the engines' contract; ONNX metadata recipe, recipe_sha256, steps, commit,
init) and DIR/<file>.ckpt (recipe, net, optimizer, step, schedule position). The learning rate warms
up linearly, then follows a cosine to lr_min over the steps (the recipe's, or --steps N) or over S
seconds. A recipe whose "init" names another recipe starts from that recipe's result: the base is
trained first in the same run (for "after" x S seconds when S is given), then the fine-tune.
"""
import argparse
import contextlib
import hashlib
import json
import math
import multiprocessing as mp
import os
import subprocess
import sys
import time

try:
    import torch
except ImportError:  # a python3 ahead of Debian's on PATH (pyenv): run under Debian's, which has python3-torch
    if os.path.exists('/usr/bin/python3') and sys.executable != '/usr/bin/python3':
        os.execv('/usr/bin/python3', ['/usr/bin/python3', *sys.argv])
    raise
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402
import nets  # noqa: E402

ROOT = data.ROOT
CKPT_EVERY = 300  # seconds between checkpoints while training


def load_recipe(path):
    """The recipe with its name (the file's stem) and any base recipe it starts from inlined."""
    with open(path) as f:
        r = json.load(f)
    r['name'] = os.path.splitext(os.path.basename(path))[0]
    init = r.get('init') or {}
    if isinstance(init.get('recipe'), str):
        r['init'] = {**init, 'recipe': load_recipe(os.path.join(os.path.dirname(path), init['recipe']))}
    return r


def canonical(recipe):
    return json.dumps(recipe, sort_keys=True, separators=(',', ':'), ensure_ascii=False)


def git_commit():
    try:
        head = subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(['git', 'status', '--porcelain', '--', 'scripts/train'], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        return head + ('+changes' if dirty else '')
    except (OSError, subprocess.CalledProcessError):
        return os.environ.get('PIXMILL_COMMIT', 'unknown')  # a copied tree without .git (the GPU machine)


def lr_at(t, p, step):
    """Linear warm-up over t.warmup steps, cosine from t.lr to t.lr_min over the position p in 0...1."""
    return (t['lr_min'] + (t['lr'] - t['lr_min']) * 0.5 * (1 + math.cos(math.pi * min(p, 1.0)))) * min(1.0, (step + 1) / t['warmup'])


def to_unit(t, dev):
    """uint8 N x H x W x 3 -> float N x 3 x H x W in -0.5...0.5 (channels-last in memory); labels N x H x W -> N x 1 x H x W."""
    t = t.to(dev, non_blocking=True)
    return t.float()[:, None] if t.dim() == 3 else t.permute(0, 3, 1, 2).float().div_(255).sub_(0.5)


def optimizer(params, t):
    if t.get('optimizer', 'adam') == 'adamw':
        return torch.optim.AdamW(params, lr=t['lr'], weight_decay=t.get('weight_decay', 0.01))
    return torch.optim.Adam(params, lr=t['lr'])


def save(obj, path):
    torch.save(obj, path + '.part')
    os.replace(path + '.part', path)


def train_one(job, pyramid, args, threads):
    """One recipe in this process: build or resume, train, write the ONNX file and the checkpoint."""
    recipe, name = job['recipe'], job['recipe']['name']
    t, spec = recipe['train'], recipe['net']
    cuda = torch.cuda.is_available()
    dev = torch.device('cuda' if cuda else 'cpu')
    torch.set_num_threads(threads)
    torch.manual_seed(recipe['data']['seed'])
    if cuda:
        torch.backends.cudnn.benchmark = True
    bf16 = (lambda: torch.autocast('cuda', dtype=torch.bfloat16)) if cuda else contextlib.nullcontext
    net = nets.build(spec)
    disc = nets.PatchDiscriminator(t['adversarial'].get('channels', 64)) if 'adversarial' in t else None
    step, p0, init = 0, 0.0, 'none'
    ck = torch.load(job['resume'], map_location='cpu') if job.get('resume') else None
    if ck:
        net.load_state_dict(ck['net'])
        step, init = ck['step'], ck['init']
        p0 = ck['p'] if args.seconds and ck['p'] < 1 else 0.0  # a finished run given more seconds: a new cosine
    elif job.get('init_file'):
        nets.load_onnx_weights(net, spec, job['init_file'])
        with open(job['init_file'], 'rb') as f:
            init = f'{os.path.basename(job["init_file"])} sha256 {hashlib.sha256(f.read()).hexdigest()[:12]}'
    elif job.get('init_ckpt'):
        base = torch.load(job['init_ckpt'], map_location='cpu')
        net.load_state_dict(base['net'])
        init = f"{base['recipe']['file']} after {base['step']} steps"
    net = net.to(dev, memory_format=torch.channels_last).train()
    opt = optimizer(net.parameters(), t)
    if disc is not None:
        disc = disc.to(dev, memory_format=torch.channels_last).train()
        opt_d = torch.optim.Adam(disc.parameters(), lr=t['adversarial'].get('lr', 1e-4), betas=(0.5, 0.999))
    if ck:
        opt.load_state_dict(ck['opt'])
        if disc is not None and 'disc' in ck:
            disc.load_state_dict(ck['disc'])
            opt_d.load_state_dict(ck['opt_d'])
    total = job['steps']
    stream = data.batches(pyramid, recipe['data'], spec.get('scale', 1), step, cuda)
    ckpt = os.path.join(args.out, recipe['file'] + '.ckpt')

    def state(p):
        s = {'recipe': recipe, 'net': net.state_dict(), 'opt': opt.state_dict(), 'step': step, 'p': p, 'init': init}
        if disc is not None:
            s.update(disc=disc.state_dict(), opt_d=opt_d.state_dict())
        return s

    print(f'{name}: {sum(x.numel() for x in net.parameters())} weights on {dev}, from {init}, step {step}, '
          + (f'{job["seconds"]:.0f} s' if job.get('seconds') else f'to step {total}'), flush=True)
    t0 = last_ckpt = last_log = time.time()
    first, ema, p = step, None, p0
    while True:
        elapsed = time.time() - t0
        p = p0 + (1 - p0) * elapsed / job['seconds'] if job.get('seconds') else step / total
        if p >= 1 or (not job.get('seconds') and step >= total):
            break
        lr = lr_at(t, p, step)
        for g in opt.param_groups:
            g['lr'] = lr
        a, b = next(stream)
        x, y = to_unit(a, dev).contiguous(memory_format=torch.channels_last), to_unit(b, dev)
        with bf16():
            out = net(x)
        out = out.float()
        loss = F.binary_cross_entropy_with_logits(out, y) if t['loss'] == 'bce' else F.l1_loss(out, y)
        if disc is not None:
            with bf16():
                g_adv = -disc(out).float().mean()
            loss = loss + t['adversarial']['weight'] * g_adv
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if disc is not None:  # hinge loss: real patches above +1, the net's below -1
            with bf16():
                d_loss = F.relu(1 - disc(y).float()).mean() + F.relu(1 + disc(out.detach()).float()).mean()
            opt_d.zero_grad(set_to_none=True)
            d_loss.backward()
            opt_d.step()
        step += 1
        ema = loss.item() if ema is None else 0.98 * ema + 0.02 * loss.item()
        now = time.time()
        if now - last_log > 30 or step == first + 1:
            print(f'{name}: step {step} {now - t0:.0f}s loss {ema:.5f} lr {lr:.2e} {(step - first) / max(now - t0, 1e-9):.1f} steps/s', flush=True)
            last_log = now
        if now - last_ckpt > CKPT_EVERY:
            save(state(p), ckpt)
            last_ckpt = now
    save(state(p), ckpt)
    meta = {'recipe': canonical(recipe), 'recipe_sha256': hashlib.sha256(canonical(recipe).encode()).hexdigest(),
            'steps': step, 'commit': git_commit(), 'init': init}
    onnx_path = os.path.join(args.out, recipe['file'] + '.onnx')
    nets.export_onnx(net, spec, onnx_path, meta)
    print(f'{name}: done, {step - first} steps in {time.time() - t0:.0f} s (step {step}) -> {onnx_path}', flush=True)


def plan(args):
    """The jobs to run: each recipe, and before a fine-tune the base it starts from (once)."""
    if args.resume:
        ck = torch.load(args.resume, map_location='cpu')
        return [{'recipe': ck['recipe'], 'resume': args.resume, 'steps': args.steps or ck['recipe']['train']['steps']}]
    jobs, by_name = [], {}

    def add(recipe, init_file=None):
        if recipe['name'] in by_name:
            return by_name[recipe['name']]
        job = {'recipe': recipe, 'steps': args.steps or recipe['train']['steps'], 'after': None}
        init = recipe.get('init') or {}
        if init_file or init.get('file'):
            job['init_file'] = init_file or os.path.join(ROOT, init['file'])
        elif init.get('recipe'):
            base = add(init['recipe'])
            job['base'] = base['recipe']['name']
            base['after'] = min(base['after'] or 1.0, init.get('after', 0.5))
        jobs.append(job)
        by_name[recipe['name']] = job
        return job

    for path in args.batch or [args.recipe]:
        add(load_recipe(path), args.init)
    return jobs


def run_jobs(jobs, args):
    """Starts every job whose base is done (a base of a fine-tune first), one process each."""
    ctx = mp.get_context('fork')  # children share the pyramids loaded here
    pyramids = {}
    for j in jobs:
        d = j['recipe']['data']
        key = json.dumps([d['photos'], d['pyramid']])
        if key not in pyramids:
            photos = data.photo_list(d['photos'])
            pyramids[key] = data.load_pyramid(photos, d['pyramid'], args.photos_root)
            mp_ = sum(a.shape[0] * a.shape[1] for a in pyramids[key]) / 1e6
            print(f'photos {"+".join(d["photos"])}: {len(photos)} photos, {len(pyramids[key])} images, {mp_:.0f} MP', flush=True)
        j['pyramid'] = key
    cuda = torch.cuda.is_available()
    threads = 2 if cuda else max(1, (os.cpu_count() or 1) // len(jobs))
    t0, running, done, failed = time.time(), {}, set(), set()
    pending = list(jobs)
    while pending or running:
        for j in [j for j in pending if j.get('base') is None or j['base'] in done]:
            pending.remove(j)
            if args.seconds:
                left = args.seconds - (time.time() - t0)
                j['seconds'] = max(1.0, args.seconds * j['after'] - (time.time() - t0) if j.get('after') else left)
            if j.get('base'):
                j['init_ckpt'] = os.path.join(args.out, next(b for b in jobs if b['recipe']['name'] == j['base'])['recipe']['file'] + '.ckpt')
            proc = ctx.Process(target=train_one, args=(j, pyramids[j['pyramid']], args, threads))
            proc.start()
            running[proc] = j
        for j in [j for j in pending if j.get('base') in failed]:
            pending.remove(j)
            failed.add(j['recipe']['name'])
            print(f'{j["recipe"]["name"]}: not started, its base failed', flush=True)
        for proc in list(running):
            proc.join(timeout=0.2)
            if proc.exitcode is not None:
                (done if proc.exitcode == 0 else failed).add(running.pop(proc)['recipe']['name'])
    print(f'{len(done)} trained, {len(failed)} failed in {time.time() - t0:.0f} s -> {args.out}', flush=True)
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument('--recipe', help='recipes/NAME.json')
    what.add_argument('--batch', nargs='+', metavar='RECIPE', help='several recipes side by side')
    what.add_argument('--resume', metavar='CKPT', help='continue DIR/FILE.ckpt (its recipe, net, optimizer, step)')
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument('--steps', type=int, help="train to this step (default: the recipe's steps)")
    budget.add_argument('--seconds', type=float, help='train for this long, the cosine over the time')
    ap.add_argument('--out', required=True, help='folder for the .onnx and .ckpt files')
    ap.add_argument('--photos-root', help='folder holding the Debian photos under their absolute paths')
    ap.add_argument('--init', metavar='FILE.onnx', help='start --recipe from these weights instead of its init')
    args = ap.parse_args()
    if args.init and not args.recipe:
        ap.error('--init goes with --recipe')
    os.makedirs(args.out, exist_ok=True)
    sys.exit(run_jobs(plan(args), args))


if __name__ == '__main__':
    main()
